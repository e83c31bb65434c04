// The source's options (prices, ratios, groups, login and payment settings): only keys Sluice's option
// registry knows, each checked as the console would check it, written over the target's value.
import { parseOptionValue, resolveOptionKey } from '@sluice/shared';
import type { OptionKey } from '@sluice/shared';
import type { Transaction } from 'kysely';
import type { Database } from '../../db/tables.js';
import { textOf } from './values.js';
import type { SourceRow } from './values.js';

export interface OptionsReport {
  imported: OptionKey[];
  /** Keys Sluice's registry does not know (features Sluice lacks, or settings it words otherwise). */
  unknown: string[];
  /** Known keys whose value Sluice would refuse, with the reason. */
  invalid: { key: string; message: string }[];
}

/** Which of the source's rows become options, and why the others do not. */
export function sortOptions(rows: readonly SourceRow[]): {
  values: Map<OptionKey, string>;
  report: OptionsReport;
} {
  const values = new Map<OptionKey, string>();
  const report: OptionsReport = { imported: [], unknown: [], invalid: [] };
  for (const row of rows) {
    const given = textOf(row.key, '').trim();
    if (given === '') continue;
    const key = resolveOptionKey(given);
    if (key === undefined) {
      report.unknown.push(given);
      continue;
    }
    const value = textOf(row.value, '');
    const parsed = parseOptionValue(key, value);
    if (!parsed.ok) {
      report.invalid.push({ key: given, message: parsed.message });
      continue;
    }
    values.set(key, value);
  }
  report.imported = [...values.keys()].sort();
  report.unknown.sort();
  return { values, report };
}

export async function writeOptions(trx: Transaction<Database>, values: ReadonlyMap<OptionKey, string>) {
  const keys = [...values.keys()];
  if (keys.length === 0) return;
  await trx.deleteFrom('options').where('key', 'in', keys).execute();
  await trx
    .insertInto('options')
    .values([...values].map(([key, value]) => ({ key, value })))
    .execute();
}
