// Drawing (midjourneys) times move to unix milliseconds, as new-api stores them, so databases and
// scripts shared with new-api agree. Rows written in seconds are converted; a value already in
// milliseconds (any time after 1973 is above 10^11 ms, and 10^11 s is the year 5138) is left as it
// is, so running this on a database imported from new-api changes nothing. Frozen.
import type { Kysely } from 'kysely';

/** Below this a stored time is in seconds; at or above it, already in milliseconds. */
export const SECONDS_BELOW = 100_000_000_000;

export async function up(db: Kysely<any>): Promise<void> {
  for (const column of ['submit_time', 'start_time', 'finish_time']) {
    await db
      .updateTable('midjourneys')
      .set((eb) => ({ [column]: eb(eb.ref(column), '*', 1000) }))
      .where(column, '>', 0)
      .where(column, '<', SECONDS_BELOW)
      .execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ['submit_time', 'start_time', 'finish_time']) {
    await db
      .updateTable('midjourneys')
      .set((eb) => ({ [column]: eb(eb.ref(column), '/', 1000) }))
      .where(column, '>=', SECONDS_BELOW)
      .execute();
  }
}
