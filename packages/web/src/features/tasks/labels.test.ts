// How task states, actions and progress read.
import { describe, expect, it } from 'vitest';
import { submitCode } from '../drawing/labels';
import { progressPercent, taskAction, taskStatus } from './labels';

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

  it('names the drawing submit codes', () => {
    expect(submitCode(1).name).toBe('submitted');
    expect(submitCode(21).name).toBe('waiting');
    expect(submitCode(22).name).toBe('duplicate');
    expect(submitCode(0).name).toBe('notSubmitted');
    expect(submitCode(9).name).toBe('unknown');
  });
});
