// The order a ledger batch locks rows in: the order every money transaction keeps (inTransaction in
// ledger.ts), so a batch and a task's charge or refund never wait on each other in a cycle.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb } from '../test-support/databases.js';
import type { TestDb } from '../test-support/databases.js';
import type { Settlement } from './ledger.js';
import { planBatch } from './ledger-sql.js';

describe('a ledger batch’s statements', () => {
  let db: TestDb;
  beforeAll(async () => {
    db = await createTestDb('sqlite');
  });
  afterAll(async () => db?.dispose());

  const charge = (userId: number, tokenId: number, channelId: number, quota: number): Settlement => ({
    hold: { userId, tokenId, amount: quota },
    quota,
    channelId,
    countRequest: true,
    now: 1,
  });

  it('lock users, then tokens, then channels, each in id order, as a task’s charge and refund do', () => {
    const steps = planBatch(
      db.db,
      [charge(9, 30, 5, 10), charge(2, 40, 7, 20), charge(9, 12, 5, 30), charge(4, 40, 6, 40)],
      { users: [], tokens: [] },
    );
    const updates = steps
      .filter((s) => /^update/i.test(s.sql))
      .map((s) => `${/^update\s+"?(\w+)"?/i.exec(s.sql)?.[1]} ${String(s.args.at(-1))}`);
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
