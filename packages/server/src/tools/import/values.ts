// Reading one column of a one-api/new-api row, whatever its driver handed back: SQLite gives numbers
// and text (booleans as 0/1, times as Go's datetime text), PostgreSQL strings for 64-bit integers,
// booleans, Date objects and parsed JSON, MySQL numbers, Dates, Buffers and parsed JSON.

/** A row as a source driver returns it. */
export type SourceRow = Readonly<Record<string, unknown>>;

const INTEGER = /^[+-]?\d+(\.\d+)?$/;

/** A whole number; `fallback` for NULL, an absent column or anything that is not a number. */
export function intOf(value: unknown, fallback: number): number {
  if (typeof value === 'number') return Number.isFinite(value) ? Math.trunc(value) : fallback;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'string') {
    const s = value.trim();
    if (INTEGER.test(s)) return Math.trunc(Number(s));
    const flag = flagWord(s);
    return flag ?? fallback;
  }
  return fallback;
}

/** A number that may have a fraction (a balance, an amount of money). */
export function numberOf(value: unknown, fallback: number): number {
  if (typeof value === 'number') return Number.isFinite(value) ? value : fallback;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) {
    return Number(value);
  }
  return fallback;
}

function flagWord(s: string): 0 | 1 | undefined {
  const word = s.toLowerCase();
  if (word === 'true' || word === 't' || word === 'yes' || word === '1') return 1;
  if (word === 'false' || word === 'f' || word === 'no' || word === '0') return 0;
  return undefined;
}

/** A boolean stored as an integer, as Sluice stores them: 1 or 0. */
export function flagOf(value: unknown, fallback: 0 | 1): 0 | 1 {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'number' || typeof value === 'bigint') return Number(value) !== 0 ? 1 : 0;
  if (typeof value === 'string') return flagWord(value.trim()) ?? fallback;
  if (value instanceof Uint8Array && value.length === 1) return value[0] !== 0 ? 1 : 0;
  return fallback;
}

/** Text; `fallback` for NULL or an absent column. JSON a driver parsed is written back as JSON. */
export function textOf(value: unknown, fallback = ''): string {
  if (value === null || value === undefined) return fallback;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') {
    return String(value);
  }
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Uint8Array) return Buffer.from(value).toString('utf8');
  return JSON.stringify(value);
}

/**
 * JSON text for a column Sluice parses as JSON: the stored text when it parses, `fallback` when the
 * column is NULL or empty, and undefined when it holds something that is not JSON.
 */
export function jsonTextOf(value: unknown, fallback: string): string | undefined {
  const text = textOf(value, '').trim();
  if (text === '') return fallback;
  try {
    JSON.parse(text);
    return text;
  } catch {
    return undefined;
  }
}

/** The JSON object a column holds, or an empty one (NULL, empty, not JSON, not an object). */
export function jsonObjectOf(value: unknown): Record<string, unknown> {
  if (
    typeof value === 'object' &&
    value !== null &&
    !(value instanceof Uint8Array) &&
    !Array.isArray(value)
  ) {
    return value as Record<string, unknown>;
  }
  const text = textOf(value, '').trim();
  if (!text.startsWith('{')) return {};
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/** Go's datetime text as go-sqlite3 stores it: `2024-05-01 10:20:30.123456789+08:00`. */
const DATETIME = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(?:\.(\d+))?\s*(Z|[+-]\d{2}:?\d{2})?/;

/**
 * Unix seconds of a soft-delete time (GORM's `deleted_at`, a datetime in the source), or null when the
 * row is not deleted. Numbers are taken as unix seconds, or milliseconds when that large.
 */
export function unixSecondsOf(value: unknown): number | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) {
    const ms = value.getTime();
    return Number.isNaN(ms) || ms <= 0 ? null : Math.floor(ms / 1000);
  }
  if (typeof value === 'number' || typeof value === 'bigint') {
    const n = Number(value);
    if (!Number.isFinite(n) || n <= 0) return null;
    return n >= 100_000_000_000 ? Math.floor(n / 1000) : Math.floor(n);
  }
  const text = textOf(value, '').trim();
  if (text === '') return null;
  if (INTEGER.test(text)) return unixSecondsOf(Number(text));
  const match = DATETIME.exec(text);
  if (!match) return null;
  const [, day, time, fraction = '', zone = 'Z'] = match;
  const offset = zone === 'Z' ? zone : zone.includes(':') ? zone : `${zone.slice(0, 3)}:${zone.slice(3)}`;
  const ms = Date.parse(
    `${day}T${time}${fraction ? `.${fraction.slice(0, 3).padEnd(3, '0')}` : ''}${offset}`,
  );
  // Go's zero time (0001-01-01) means "not set".
  return Number.isNaN(ms) || ms <= 0 ? null : Math.floor(ms / 1000);
}

/** The text cut to `max` characters (a column of Sluice's is that wide). */
export const clip = (text: string, max: number): string => (text.length > max ? text.slice(0, max) : text);
