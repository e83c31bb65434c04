// The timing colours of the usage lists, at the spec's thresholds.
import { describe, expect, it } from 'vitest';
import { callTimeColour, firstTokenColour, taskDuration, taskDurationColour } from './colours';

describe('timing colours', () => {
  it('colours a call under 101 s green, under 300 s orange, else red', () => {
    expect(callTimeColour(0)).toBe('green');
    expect(callTimeColour(100)).toBe('green');
    expect(callTimeColour(101)).toBe('orange');
    expect(callTimeColour(299)).toBe('orange');
    expect(callTimeColour(300)).toBe('red');
  });

  it('colours the first token under 3 s green, under 10 s orange, else red', () => {
    expect(firstTokenColour(2999)).toBe('green');
    expect(firstTokenColour(3000)).toBe('orange');
    expect(firstTokenColour(9999)).toBe('orange');
    expect(firstTokenColour(10_000)).toBe('red');
  });

  it('shows a task that took over a minute in red', () => {
    expect(taskDurationColour(60)).toBe('green');
    expect(taskDurationColour(61)).toBe('red');
  });

  it('measures a task from submit to finish, and not before it finished', () => {
    expect(taskDuration(1000, 1075)).toBe(75);
    expect(taskDuration(1000, 0)).toBeNull();
  });
});
