// How task states, actions and progress read.
import { describe, expect, it } from 'vitest';
import { submitCode } from '../drawing/labels';
import {
  elapsedSeconds,
  progressPercent,
  progressStatus,
  secondsToUnit,
  taskAction,
  taskStatus,
  timeInSeconds,
} from './labels';

describe('task labels', () => {
  it('knows every task status, an empty one as submitting, and passes unknown ones through', () => {
    expect(taskStatus('SUBMITTED')?.name).toBe('SUBMITTED');
    expect(taskStatus('QUEUED')?.name).toBe('QUEUED');
    expect(taskStatus('')?.name).toBe('submitting');
    expect(taskStatus('EXPLODED')).toBeNull();
  });

  it('knows the Suno actions', () => {
    expect(taskAction('LYRICS')).toBe('LYRICS');
    expect(taskAction('VIDEO')).toBeNull();
  });

  it('reads progress as a percentage', () => {
    expect(progressPercent('40%')).toBe(40);
    expect(progressPercent('100')).toBe(100);
    expect(progressPercent('')).toBeNull();
    expect(progressPercent('waiting')).toBeNull();
  });

  it('colours a progress bar green only for a success, red for a failure', () => {
    expect(progressStatus('SUCCESS')).toBeUndefined();
    expect(progressStatus('FAILURE')).toBe('exception');
    for (const running of ['', 'NOT_START', 'SUBMITTED', 'QUEUED', 'IN_PROGRESS', 'MODAL']) {
      expect(progressStatus(running), running).toBe('active');
    }
    expect(progressStatus('UNKNOWN')).toBe('normal');
    expect(progressStatus('EXPLODED')).toBe('normal');
  });

  it('names the drawing submit codes', () => {
    expect(submitCode(1).name).toBe('submitted');
    expect(submitCode(21).name).toBe('waiting');
    expect(submitCode(22).name).toBe('duplicate');
    expect(submitCode(0).name).toBe('notSubmitted');
    expect(submitCode(9).name).toBe('unknown');
  });

  it('reads drawing times as milliseconds and task times as seconds', () => {
    expect(timeInSeconds(1_790_000_000_999, 'ms')).toBe(1_790_000_000);
    expect(timeInSeconds(1_790_000_000, 's')).toBe(1_790_000_000);
    expect(secondsToUnit(1_790_000_000, 'ms')).toBe(1_790_000_000_000);
    expect(secondsToUnit(1_790_000_000, 's')).toBe(1_790_000_000);
    expect(elapsedSeconds(1_790_000_000_000, 1_790_000_061_240, 'ms')).toBe(61.2);
    expect(elapsedSeconds(1_790_000_000, 1_790_000_061, 's')).toBe(61);
    expect(elapsedSeconds(1_790_000_000_000, 0, 'ms')).toBeNull();
    expect(elapsedSeconds(Number.NaN, 1_790_000_061, 's')).toBeNull();
  });
});
