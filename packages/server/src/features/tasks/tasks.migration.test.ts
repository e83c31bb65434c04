// The migration that moves drawing times to milliseconds: rows in seconds are converted, rows
// already in milliseconds (a database shared with new-api) and unset times are left alone.
import { afterEach, describe, expect, it } from 'vitest';
import { up } from '../../db/migrations/2026-11-25-0001-midjourney-times-in-ms.js';
import { createTestDb, testDialects } from '../../test-support/databases.js';
import type { TestDb } from '../../test-support/databases.js';

const drawing = { prompt: '', prompt_en: '', description: '', state: '', image_url: '', fail_reason: '' };
const rest = { buttons: '[]', properties: '{}' };

describe.each(testDialects())('drawing times migration on %s', (dialect) => {
  let db: TestDb | undefined;
  afterEach(async () => {
    await db?.dispose();
    db = undefined;
  });

  it('converts seconds to milliseconds and leaves milliseconds and zeros as they are', async () => {
    db = await createTestDb(dialect);
    await db.db
      .insertInto('midjourneys')
      .values([
        {
          ...drawing,
          ...rest,
          mj_id: 'in-seconds',
          submit_time: 1_700_000_000,
          start_time: 1_700_000_002,
          finish_time: 1_700_000_031,
        },
        {
          ...drawing,
          ...rest,
          mj_id: 'in-ms',
          submit_time: 1_700_000_000_123,
          start_time: 1_700_000_002_000,
          finish_time: 0,
        },
        { ...drawing, ...rest, mj_id: 'queued', submit_time: 1_700_000_000, start_time: 0, finish_time: 0 },
      ])
      .execute();

    await up(db.db);
    const times = async () =>
      Object.fromEntries(
        (
          await db!.db
            .selectFrom('midjourneys')
            .select(['mj_id', 'submit_time', 'start_time', 'finish_time'])
            .execute()
        ).map((r) => [r.mj_id, [Number(r.submit_time), Number(r.start_time), Number(r.finish_time)]]),
      );
    const expected = {
      'in-seconds': [1_700_000_000_000, 1_700_000_002_000, 1_700_000_031_000],
      'in-ms': [1_700_000_000_123, 1_700_000_002_000, 0],
      queued: [1_700_000_000_000, 0, 0],
    };
    expect(await times()).toEqual(expected);
    // Running it again changes nothing: every time is now in milliseconds.
    await up(db.db);
    expect(await times()).toEqual(expected);
  });
});
