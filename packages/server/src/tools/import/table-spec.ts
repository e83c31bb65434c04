// What a table's import is made of: the source columns it reads, how one source row becomes one
// Sluice row (or is left out, and why), and the helpers every conversion shares.
import type { Insertable } from 'kysely';
import type { Database } from '../../db/tables.js';
import { intOf, textOf } from './values.js';
import type { SourceRow } from './values.js';

export type SourceKind = 'one-api' | 'new-api';

export interface ConvertContext {
  kind: SourceKind;
  /** Unix seconds. */
  now: number;
  /**
   * Counts a fact worth telling the operator about a row, worded to follow the number of rows it is
   * true of ("3 whose model_mapping was not JSON").
   */
  note(text: string): void;
}

/** A row left out, and why. */
export interface Skip {
  skip: string;
}

export type ImportedTable =
  | 'users'
  | 'tokens'
  | 'channels'
  | 'redemptions'
  | 'top_ups'
  | 'midjourneys'
  | 'tasks'
  | 'logs'
  | 'quota_data';

export interface TableSpec {
  /** The table's name in the source and in Sluice. */
  name: ImportedTable;
  /** Logs and usage statistics come over only with --with-logs. */
  withLogs: boolean;
  /** Source columns the conversion uses; any other column of the source table is reported as dropped. */
  reads: readonly string[];
  /** Unique columns: a target row holding an incoming value under another id is replaced (--force). */
  replaceOn?: readonly string[];
  /** Unique columns whose incoming value is renewed instead when another target row holds it. */
  renew?: Readonly<Record<string, () => string | null>>;
  /** Unique columns rows are summed on (hourly statistics), instead of one row per source row. */
  mergeOn?: readonly string[];
  convert(row: SourceRow, ctx: ConvertContext): Record<string, unknown> | Skip;
}

export const has = (row: SourceRow, column: string) => Object.hasOwn(row, column);

/** Checks the conversion's output against Sluice's table type, then forgets it for the generic writer. */
export const rowOf = <T extends ImportedTable>(
  _table: T,
  row: Insertable<Database[T]>,
): Record<string, unknown> => row;

/** The source's id, or a skip when there is none. */
export function idOf(row: SourceRow): number | Skip {
  const id = intOf(row.id, 0);
  return id > 0 ? id : { skip: 'no id' };
}

/** A value that names the row (a key, a username): never cut, the row is left out instead. */
export function identity(value: unknown, column: string, max: number): string | Skip {
  const text = textOf(value, '').trim();
  if (text === '') return { skip: `empty ${column}` };
  if (text.length > max) return { skip: `${column} longer than ${max} characters` };
  return text;
}

export const isSkip = (value: unknown): value is Skip =>
  typeof value === 'object' && value !== null && Object.hasOwn(value, 'skip');
