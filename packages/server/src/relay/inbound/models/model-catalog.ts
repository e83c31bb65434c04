// The models each group can call: enabled abilities of enabled channels whose type the relay serves.
// Kept in memory per group and dropped whenever a writer announces a channel change, so listing
// models does not read the database on every call.
import { CHANNEL_STATUS } from '@sluice/shared';
import { adapterFor } from '../../providers/registry.js';
import type { RelayRuntime } from '../../pipeline/relay-runtime.js';

export interface CatalogModel {
  id: string;
  /** The vendor of the first channel serving it (the adapter's name), as one-api shows it. */
  ownedBy: string;
}

export interface ModelCatalog {
  modelsOf(group: string): Promise<readonly CatalogModel[]>;
}

const catalogs = new WeakMap<RelayRuntime, ModelCatalog>();

export function modelCatalog(rt: RelayRuntime): ModelCatalog {
  const existing = catalogs.get(rt);
  if (existing) return existing;
  const byGroup = new Map<string, Promise<readonly CatalogModel[]>>();
  // A load that started before a change must not be cached after it.
  let generation = 0;
  rt.onClose(
    rt.ctx.bus.subscribe('channels', () => {
      generation++;
      byGroup.clear();
    }),
  );

  const load = async (group: string): Promise<readonly CatalogModel[]> => {
    const rows = await rt.ctx.db
      .selectFrom('abilities')
      .innerJoin('channels', 'channels.id', 'abilities.channel_id')
      .select(['abilities.model', 'channels.type', 'channels.id'])
      .where('abilities.group', '=', group)
      .where('abilities.enabled', '=', 1)
      .where('channels.status', '=', CHANNEL_STATUS.enabled)
      .orderBy('channels.id')
      .execute();
    const models = new Map<string, CatalogModel>();
    for (const row of rows) {
      const adapter = adapterFor(row.type);
      if (!adapter || models.has(row.model)) continue;
      models.set(row.model, { id: row.model, ownedBy: adapter.name });
    }
    // Sorted here, not in SQL: MySQL's default collation ignores case, the others do not.
    return [...models.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  };

  const catalog: ModelCatalog = {
    modelsOf(group) {
      const cached = byGroup.get(group);
      if (cached) return cached;
      const started = generation;
      const loading = load(group);
      byGroup.set(group, loading);
      loading.then(
        () => {
          if (generation !== started) byGroup.delete(group);
        },
        () => byGroup.delete(group),
      );
      return loading;
    },
  };
  catalogs.set(rt, catalog);
  return catalog;
}
