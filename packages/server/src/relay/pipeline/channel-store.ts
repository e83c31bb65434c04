// Keeps the channel index in memory: loaded at start, rebuilt whenever a writer publishes 'channels'.
// A call that arrives while a rebuild is running waits for it, so a node reads its own writes.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/tables.js';
import type { CacheBus } from '../../platform/cache-bus.js';
import { buildChannelIndex } from './channel-index.js';
import type { ChannelIndex } from './channel-index.js';

export interface ChannelStore {
  /** The current index, after any rebuild in progress. */
  index(): Promise<ChannelIndex>;
  /** The index when one is loaded and no rebuild is running: nothing to wait for. */
  ready(): ChannelIndex | undefined;
  reload(): Promise<void>;
  close(): void;
}

export function createChannelStore(
  db: Kysely<Database>,
  bus: CacheBus,
  onError: (error: unknown) => void,
): ChannelStore {
  let index: ChannelIndex | undefined;
  let running: Promise<void> | undefined;
  let again = false;

  const load = async () => {
    const [channels, abilities] = await Promise.all([
      db.selectFrom('channels').selectAll().execute(),
      db
        .selectFrom('abilities')
        // Disabled ones too: they tell a model no channel lists (404) from one whose channels are down (503).
        .select(['group', 'model', 'channel_id', 'enabled', 'priority', 'weight'])
        .execute(),
    ]);
    index = buildChannelIndex(channels, abilities);
  };

  // Rebuilds never overlap; messages that arrive during one coalesce into one more.
  const reload = (): Promise<void> => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      try {
        do {
          again = false;
          await load();
        } while (again);
      } catch (error) {
        onError(error);
      } finally {
        running = undefined;
      }
    })();
    return running;
  };

  const unsubscribe = bus.subscribe('channels', () => void reload());

  return {
    async index() {
      if (running) await running;
      if (!index) await reload();
      return index ?? buildChannelIndex([], []);
    },
    ready: () => (running ? undefined : index),
    reload,
    close: unsubscribe,
  };
}
