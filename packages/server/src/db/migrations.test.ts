// Every migration after the initial schema can be rolled back and applied again, on every database:
// an operator who must go back one version restores a backup, but a failed upgrade in a test or a
// staging copy steps down cleanly.
import { afterEach, describe, expect, it } from 'vitest';
import { migrator } from './create-db.js';
import { createTestDb, testDialects } from '../test-support/databases.js';
import type { TestDb } from '../test-support/databases.js';

const INITIAL = '2026-11-21-0001-initial';

describe.each(testDialects())('migrations on %s', (dialect) => {
  let db: TestDb | undefined;
  afterEach(async () => {
    await db?.dispose();
    db = undefined;
  });

  it('go down to the initial schema and up again without an error', async () => {
    db = await createTestDb(dialect);
    const down = await migrator(db.db).migrateTo(INITIAL);
    expect(down.error, String(down.error)).toBeUndefined();
    expect(down.results?.every((r) => r.direction === 'Down' && r.status === 'Success')).toBe(true);
    const up = await migrator(db.db).migrateToLatest();
    expect(up.error, String(up.error)).toBeUndefined();
    expect(up.results?.length).toBe(down.results?.length);
  });
});
