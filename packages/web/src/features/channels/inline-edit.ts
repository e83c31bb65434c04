// The list's inline priority and weight edits (spec part 2 §5): what a typed value becomes, for one
// channel and for a whole tag. Blank is ignored everywhere.

export type InlineField = 'priority' | 'weight';

export type InlineResult =
  | { kind: 'skip' }
  | { kind: 'set'; value: number }
  | {
      kind: 'error';
      key:
        | 'msg.priorityNotInteger'
        | 'msg.priorityTooLow'
        | 'msg.weightNotNonNegative'
        | 'channels.weightNotInteger';
    };

export const PRIORITY_MIN = -999;

const parseInteger = (text: string): number | null => {
  const trimmed = text.trim();
  if (!/^[-+]?\d+$/.test(trimmed)) return null;
  const n = Number(trimmed);
  return Number.isSafeInteger(n) ? n : null;
};

/** One channel: priority an integer from -999; weight an integer, below 0 set to 0. */
export function parseChannelInline(field: InlineField, text: string): InlineResult {
  if (text.trim() === '') return { kind: 'skip' };
  const n = parseInteger(text);
  if (field === 'priority') {
    if (n === null) return { kind: 'error', key: 'msg.priorityNotInteger' };
    if (n < PRIORITY_MIN) return { kind: 'error', key: 'msg.priorityTooLow' };
    return { kind: 'set', value: n };
  }
  if (n === null) return { kind: 'error', key: 'channels.weightNotInteger' };
  return { kind: 'set', value: Math.max(0, n) };
}

/** A whole tag: priority an integer (from -999, as for one channel); weight a non-negative integer. */
export function parseTagInline(field: InlineField, text: string): InlineResult {
  if (text.trim() === '') return { kind: 'skip' };
  const n = parseInteger(text);
  if (field === 'priority') {
    if (n === null) return { kind: 'error', key: 'msg.priorityNotInteger' };
    if (n < PRIORITY_MIN) return { kind: 'error', key: 'msg.priorityTooLow' };
    return { kind: 'set', value: n };
  }
  if (n === null || n < 0) return { kind: 'error', key: 'msg.weightNotNonNegative' };
  return { kind: 'set', value: n };
}
