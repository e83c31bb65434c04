import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb } from '../test-support/databases.js';
import type { TestDb } from '../test-support/databases.js';
import { createLedgerStore } from './ledger-store.js';
import type { Settlement } from './ledger.js';

describe('ledger store on a SQLite file (writer thread)', () => {
  let db: TestDb;
  let userId: number;
  beforeAll(async () => {
    db = await createTestDb('sqlite');
    const inserted = await db.db
      .insertInto('users')
      .values({ username: 'ledger-store', password: '!', quota: 1_000_000, aff_code: 'LEDGERSTORE1' })
      .executeTakeFirstOrThrow();
    userId = Number(inserted.insertId);
  });
  afterAll(async () => db?.dispose());

  const charge = (quota: number): Settlement => ({
    hold: { userId, tokenId: null, amount: quota },
    quota,
    channelId: 0,
    countRequest: true,
    now: 1,
    log: { user_id: userId, created_at: 1, type: 2, content: 'call', other: '{}', quota },
  });
  const quotaNow = async () =>
    Number(
      (await db.db.selectFrom('users').select('quota').where('id', '=', userId).executeTakeFirstOrThrow())
        .quota,
    );

  it('writes batches from its own thread while this thread reads and writes the same rows', async () => {
    expect(db.sqliteFile).not.toBeNull();
    const store = createLedgerStore(db);
    const before = await quotaNow();
    // The writer thread commits 40 batches; meanwhile this connection runs 20 transactions that read
    // the balance and then write it, the pattern that fails on a stale snapshot unless transactions
    // take the write lock when they begin.
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const batches = (async () => {
      const out = [];
      for (let i = 0; i < 40; i++) {
        out.push(await store.commit([charge(3), charge(4)], { users: [], tokens: [] }));
        await sleep(1);
      }
      return out;
    })();
    const topUps = (async () => {
      for (let i = 0; i < 20; i++) {
        await db.db.transaction().execute(async (trx) => {
          const row = await trx
            .selectFrom('users')
            .select('quota')
            .where('id', '=', userId)
            .executeTakeFirstOrThrow();
          await sleep(3);
          await trx
            .updateTable('users')
            .set({ quota: Number(row.quota) + 10 })
            .where('id', '=', userId)
            .execute();
        });
      }
    })();
    const results = await batches;
    await topUps;
    // Each batch reads the balance back after its own writes.
    for (const balances of results) expect(balances.users.has(userId)).toBe(true);
    expect(await quotaNow()).toBe(before - 40 * 7 + 20 * 10);
    const logs = await db.db.selectFrom('logs').select('quota').where('user_id', '=', userId).execute();
    expect(logs.reduce((sum, row) => sum + Number(row.quota), 0)).toBe(40 * 7);
    await store.close();
  });

  it('refuses a batch the database rejects, leaving nothing of it behind, and goes on with the next', async () => {
    const store = createLedgerStore(db);
    const before = await quotaNow();
    const broken: Settlement = {
      ...charge(5),
      log: { user_id: userId, created_at: 1, type: 2, content: null as never, other: '{}' },
    };
    await expect(store.commit([charge(5), broken], { users: [], tokens: [] })).rejects.toThrow(/NOT NULL/i);
    expect(await quotaNow()).toBe(before);
    await store.commit([charge(5)], { users: [], tokens: [] });
    expect(await quotaNow()).toBe(before - 5);
    await store.close();
  });

  it('stops its thread on close; a commit after that is refused', async () => {
    const store = createLedgerStore(db);
    await store.close();
    await expect(store.commit([charge(1)], { users: [], tokens: [] })).rejects.toThrow(/stopped/);
  });
});
