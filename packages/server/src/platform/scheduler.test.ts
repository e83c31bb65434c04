import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { testDialects, createTestDb } from '../test-support/databases.js';
import type { TestDb } from '../test-support/databases.js';
import { createScheduler } from './scheduler.js';
import type { Clock } from './clock.js';

const silent = { error: () => undefined } as unknown as FastifyBaseLogger;

describe.each(testDialects())('scheduler leader lease on %s', (dialect) => {
  let db: TestDb;
  let now = 1_000_000;
  const clock: Clock = { now: () => now, nowMs: () => now * 1000 };
  beforeAll(async () => {
    db = await createTestDb(dialect);
  });
  afterAll(async () => db?.dispose());

  it('runs a job on one node only until its lease expires', async () => {
    const runs: string[] = [];
    const a = createScheduler({ db: db.db, clock, log: silent });
    const b = createScheduler({ db: db.db, clock, log: silent });
    a.every('cleanup', 60_000, async () => void runs.push('a'));
    b.every('cleanup', 60_000, async () => void runs.push('b'));

    expect(await a.runNow('cleanup')).toBe(true);
    expect(await b.runNow('cleanup')).toBe(false);
    expect(await a.runNow('cleanup')).toBe(true);
    // Node a stops renewing; after the lease (3 intervals) node b takes over.
    now += 181;
    expect(await b.runNow('cleanup')).toBe(true);
    expect(await a.runNow('cleanup')).toBe(false);
    expect(runs).toEqual(['a', 'a', 'b']);
    a.stop();
    b.stop();
  });
});
