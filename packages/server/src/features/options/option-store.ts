// In-memory view of the options table: typed values read without I/O, writes go to the database
// first and then invalidate every node's copy through the cache bus.
import { OPTION_DEFS, OPTION_KEYS, isOptionKey, parseOptionValue } from '@sluice/shared';
import type { OptionKey, OptionValue, OptionValues } from '@sluice/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/tables.js';
import type { CacheBus } from '../../platform/cache-bus.js';
import type { DialectName } from '../../db/create-db.js';
import { badRequest } from '../../http/envelope.js';

export interface OptionStore {
  get<K extends OptionKey>(key: K): OptionValue<K>;
  /** The stored string form (the wire form). */
  raw(key: OptionKey): string;
  all(): Readonly<OptionValues>;
  /** Validates, stores and applies one value. Throws a 400 ApiError on an invalid value. */
  set(key: string, value: string): Promise<void>;
  reload(): Promise<void>;
  /** Called after every change (local or from another node). */
  onChange(listener: () => void): () => void;
}

function defaults(): { raw: Record<OptionKey, string>; values: OptionValues } {
  const raw = {} as Record<OptionKey, string>;
  const values = {} as Record<OptionKey, unknown>;
  for (const key of OPTION_KEYS) {
    raw[key] = OPTION_DEFS[key].default;
    const parsed = parseOptionValue(key, raw[key]);
    if (!parsed.ok) throw new Error(`default of option ${key} is invalid: ${parsed.message}`);
    values[key] = parsed.value;
  }
  return { raw, values: values as OptionValues };
}

export async function createOptionStore(
  db: Kysely<Database>,
  dialect: DialectName,
  bus: CacheBus,
): Promise<OptionStore> {
  let state = defaults();
  const listeners = new Set<() => void>();

  const load = async () => {
    const next = defaults();
    const rows = await db.selectFrom('options').select(['key', 'value']).execute();
    for (const row of rows) {
      if (!isOptionKey(row.key)) continue;
      const parsed = parseOptionValue(row.key, row.value);
      // A value that no longer parses (hand-edited database) falls back to the default.
      if (!parsed.ok) continue;
      next.raw[row.key] = row.value;
      (next.values as Record<OptionKey, unknown>)[row.key] = parsed.value;
    }
    state = next;
    for (const listener of listeners) listener();
  };

  await load();
  bus.subscribe('options', () => void load());

  return {
    get: (key) => state.values[key],
    raw: (key) => state.raw[key],
    all: () => state.values,
    reload: load,
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async set(key, value) {
      if (!isOptionKey(key)) throw badRequest(`unknown option: ${key}`);
      const parsed = parseOptionValue(key, value);
      if (!parsed.ok) throw badRequest(`${key}: ${parsed.message}`);
      const insert = db.insertInto('options').values({ key, value });
      await (
        dialect === 'mysql'
          ? insert.onDuplicateKeyUpdate({ value })
          : insert.onConflict((oc) => oc.column('key').doUpdateSet({ value }))
      ).execute();
      // This node sees its own write before set() returns; the others hear it on the bus.
      await load();
      bus.publish('options');
    },
  };
}
