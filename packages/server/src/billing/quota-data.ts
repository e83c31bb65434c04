// Hourly usage per user and model for the dashboard (when DataExportEnabled): summed in memory and
// upserted into quota_data every DataExportInterval minutes and at shutdown. Statistics only — the
// billing itself is already in the logs and balances, so a crash loses at most one interval of charts.
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { DialectName } from '../db/create-db.js';
import type { Database } from '../db/tables.js';

interface Bucket {
  userId: number;
  username: string;
  modelName: string;
  hour: number;
  tokens: number;
  count: number;
  quota: number;
}

export interface QuotaDataRecorder {
  record(entry: {
    userId: number;
    username: string;
    modelName: string;
    at: number;
    tokens: number;
    quota: number;
  }): void;
  flush(): Promise<void>;
}

export function createQuotaDataRecorder(db: Kysely<Database>, dialect: DialectName): QuotaDataRecorder {
  let buckets = new Map<string, Bucket>();
  let flushing: Promise<void> = Promise.resolve();

  const upsert = async (b: Bucket) => {
    const values = {
      user_id: b.userId,
      username: b.username,
      model_name: b.modelName,
      created_at: b.hour,
      token_used: b.tokens,
      count: b.count,
      quota: b.quota,
    };
    const insert = db.insertInto('quota_data').values(values);
    if (dialect === 'mysql') {
      await insert
        .onDuplicateKeyUpdate({
          token_used: sql`token_used + ${b.tokens}`,
          count: sql`count + ${b.count}`,
          quota: sql`quota + ${b.quota}`,
        })
        .execute();
      return;
    }
    await insert
      .onConflict((oc) =>
        oc.columns(['user_id', 'model_name', 'created_at']).doUpdateSet({
          token_used: sql`quota_data.token_used + ${b.tokens}`,
          count: sql`quota_data.count + ${b.count}`,
          quota: sql`quota_data.quota + ${b.quota}`,
        }),
      )
      .execute();
  };

  return {
    record(e) {
      const hour = e.at - (e.at % 3600);
      const id = `${e.userId}\u0000${e.modelName}\u0000${hour}`;
      const bucket = buckets.get(id);
      if (bucket) {
        bucket.tokens += e.tokens;
        bucket.count += 1;
        bucket.quota += e.quota;
      } else {
        buckets.set(id, {
          userId: e.userId,
          username: e.username,
          modelName: e.modelName,
          hour,
          tokens: e.tokens,
          count: 1,
          quota: e.quota,
        });
      }
    },
    flush() {
      // A failed flush does not stop later ones; its error reaches the caller of this flush.
      flushing = flushing
        .catch(() => undefined)
        .then(async () => {
          const batch = buckets;
          buckets = new Map();
          for (const bucket of batch.values()) await upsert(bucket);
        });
      return flushing;
    },
  };
}
