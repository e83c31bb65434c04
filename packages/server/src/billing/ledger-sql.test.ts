// The order a ledger batch locks rows in: the order every money transaction keeps (inTransaction in
// ledger.ts), so a batch and a task's charge or refund never wait on each other in a cycle.
import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertId } from '../db/insert-id.js';
import { createTestDb, testDialects } from '../test-support/databases.js';
import type { TestDb } from '../test-support/databases.js';
import { channelValues } from '../test-support/relay-kit.js';
import type { Settlement } from './ledger.js';
import { planBatch } from './ledger-sql.js';

const charge = (userId: number, tokenId: number, channelId: number, quota: number): Settlement => ({
  hold: { userId, tokenId, amount: quota },
  quota,
  channelId,
  countRequest: true,
  now: 1,
});

describe('a ledger batch’s statements', () => {
  let db: TestDb;
  beforeAll(async () => {
    db = await createTestDb('sqlite');
  });
  afterAll(async () => db?.dispose());

  it('lock users, then tokens, then channels, each in id order, as a task’s charge and refund do', () => {
    const steps = planBatch(
      db.db,
      [charge(9, 30, 5, 10), charge(2, 40, 7, 20), charge(9, 12, 5, 30), charge(4, 40, 6, 40)],
      { users: [], tokens: [] },
    );
    const updates = steps
      .filter((s) => /^update/i.test(s.sql))
      .map((s) => `${/^update\s+[`"]?(\w+)/i.exec(s.sql)?.[1]} ${String(s.args.at(-1))}`);
    expect(updates).toEqual([
      'users 2',
      'users 4',
      'users 9',
      'tokens 12',
      'tokens 30',
      'tokens 40',
      'channels 5',
      'channels 6',
      'channels 7',
    ]);
  });
});

// SQLite has one writer at a time: nothing to interleave there. PostgreSQL and MySQL run where
// TEST_PG_DSN and TEST_MYSQL_DSN name a server (CI sets both).
const servers = testDialects().filter((d) => d !== 'sqlite');

describe.skipIf(servers.length === 0).each(servers)('a ledger batch racing a charge on %s', (dialect) => {
  let db: TestDb;
  let userId: number;
  let tokenId: number;
  let channelId: number;
  beforeAll(async () => {
    db = await createTestDb(dialect);
    userId = await insertId(
      db.db.insertInto('users').values({ username: 'racer', password: '!', quota: 1_000, aff_code: 'RACE1' }),
      dialect,
    );
    tokenId = await insertId(
      db.db.insertInto('tokens').values({
        user_id: userId,
        key: 'race-token-key',
        name: 'race',
        remain_quota: 1_000,
        model_limits: '',
        allow_ips: '',
        expired_time: -1,
      }),
      dialect,
    );
    channelId = await insertId(db.db.insertInto('channels').values(channelValues()), dialect);
  });
  afterAll(async () => db?.dispose());

  /**
   * Resolves once a statement of the test's database is held up: waiting for a row lock (PostgreSQL
   * says so; MySQL shows the UPDATE still running, the only statement here that can wait).
   */
  async function someoneWaits(): Promise<void> {
    const waiting = async () => {
      const query =
        dialect === 'postgres'
          ? sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
              where datname = current_database() and wait_event_type = 'Lock'`
          : sql<{ n: number }>`select count(*) as n from information_schema.processlist
              where db = database() and command = 'Query' and info like 'update %'`;
      return Number((await query.execute(db.db)).rows[0]?.n ?? 0) > 0;
    };
    for (let i = 0; i < 500; i++) {
      if (await waiting()) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error('no statement came to wait');
  }

  it('commits both when the charge holds the user’s row first and then takes the token’s', async () => {
    const steps = planBatch(db.db, [charge(userId, tokenId, channelId, 7)], { users: [], tokens: [] });
    let batch: Promise<void> | undefined;
    // Neither transaction retries: a deadlock fails the test whichever of the two is chosen to end.
    await db.db.transaction().execute(async (task) => {
      await task
        .updateTable('users')
        .set({ quota: sql`quota - 5` })
        .where('id', '=', userId)
        .execute();
      batch = db.db.transaction().execute(async (trx) => {
        for (const step of steps) await trx.executeQuery(CompiledQuery.raw(step.sql, step.args));
      });
      // Kept from being an unhandled rejection while it waits; awaited below.
      batch.catch(() => undefined);
      // The batch waits for the user's row, holding nothing the charge needs next.
      await someoneWaits();
      await task
        .updateTable('tokens')
        .set({ remain_quota: sql`remain_quota - 5` })
        .where('id', '=', tokenId)
        .execute();
    });
    await batch;
    const user = await db.db
      .selectFrom('users')
      .select('quota')
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    const token = await db.db
      .selectFrom('tokens')
      .select('remain_quota')
      .where('id', '=', tokenId)
      .executeTakeFirstOrThrow();
    expect([Number(user.quota), Number(token.remain_quota)]).toEqual([1_000 - 5 - 7, 1_000 - 5 - 7]);
  });
});
