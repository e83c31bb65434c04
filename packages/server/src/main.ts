// Entry point: configuration → database → app → listen; drains and closes on SIGTERM/SIGINT.
import { Session } from 'node:inspector/promises';
import { setFlagsFromString } from 'node:v8';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { createDb } from './db/create-db.js';
import { closeGracefully, trackConnections } from './http/shutdown.js';

// No allocation-site pretenuring. At start-up, while V8's young generation is still small, the
// objects a relay call keeps for its whole life (its input, holding the client's request and reply)
// survive most scavenges, and V8 may decide to allocate them in the old generation from then on.
// Dead there until the next full collection, they keep everything they point to alive through every
// scavenge: about one run in four then promoted the whole request of every call, the heap grew by
// 15 to 50 MB/s and throughput fell by a tenth. See docs/relay-design.md, "One shape per object".
setFlagsFromString('--no-allocation-site-pretenuring');
// A full collection once the old generation has grown by a fifth over what the last one kept. V8's own
// factor, with the memory of a typical server, lets it grow to up to four times that first: under load
// the relay promotes a little of each call, and that garbage stayed resident until then. Measured with
// the benchmark's load (interleaved runs): RSS after the load 10 to 35 MiB lower, CPU time per call
// within the runs' noise.
setFlagsFromString('--heap-growing-percent=20');
// The young generation's size cannot change once V8 has started, so its cap is on the command line of
// `npm start` (and of the Dockerfile and the systemd unit): `--max-semi-space-size=8`. V8's default of
// 16 MB a semi-space is reached while the modules load and then kept: 32 MB resident even when idle.
// At 8, RSS was 15 to 25 MiB lower after start and after the load, with collections taking 37 to 45 µs
// of main-thread time per call against 26 to 49 by default. At 4 they took 117 µs a call.

/**
 * One memory-reducing collection once the app is built, before the first call. Loading the modules
 * and building the routes grows V8's young generation to its cap (16 MB with the flag above), which
 * stays resident until V8's memory reducer notices the process is idle, 10 to 20 s later. Node has no
 * call that asks for that collection; the inspector's HeapProfiler.collectGarbage is V8's low-memory
 * notification (an in-process session: no port is opened, nothing else is enabled). It takes about
 * 15 ms. Measured on the built server (dist/sluice.js), ready and before any call: 81 MiB resident
 * with it in every run, 97 to 99 without (and 113 for a build that only named things differently).
 * The young generation grows back under load as before.
 */
async function collectStartUpGarbage(): Promise<void> {
  const session = new Session();
  try {
    session.connect();
    await session.post('HeapProfiler.collectGarbage');
  } catch {
    // A Node built without the inspector: start as is.
  } finally {
    session.disconnect();
  }
}

async function main(): Promise<void> {
  const config = loadConfig();
  const db = await createDb({ sqlDsn: config.sqlDsn, sqlitePath: config.sqlitePath });
  // Cluster mode: cache invalidation and rate limits shared through Redis.
  // Loaded only when used, as the database drivers are: a single node keeps its memory for the relay.
  // Auto-pipelining: the commands of one tick (every relay call's hold is one) go in one write. Under
  // `npm run bench:cluster` one node on PostgreSQL + Redis kept 0.45× to 0.47× of the pass-through's
  // JSON throughput with it, 0.40× without (0.52× to 0.55× on PostgreSQL alone).
  const redis = config.redisUrl
    ? new (await import('ioredis')).Redis(config.redisUrl, {
        maxRetriesPerRequest: 3,
        enableAutoPipelining: true,
      })
    : undefined;
  const bus = config.redisUrl
    ? await (
        await import('./platform/redis-cache-bus.js')
      ).createRedisCacheBus(config.redisUrl, config.redisPrefix)
    : undefined;
  const app = await buildApp({ config, db, redis, bus, logger: { level: config.logLevel } });
  await app.ready();
  await collectStartUpGarbage();
  const connections = trackConnections(app.server);
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    const graceMs = config.shutdownTimeoutSeconds * 1000;
    app.log.info({ signal, graceSeconds: config.shutdownTimeoutSeconds }, 'shutting down: draining calls');
    // Last resort, should a close hook hang: the grace period plus time to write out the billing.
    const force = setTimeout(() => process.exit(1), graceMs + 15_000);
    force.unref();
    let code = 0;
    try {
      const drained = await closeGracefully(app, connections, graceMs);
      if (!drained) app.log.warn('calls still running at the end of SHUTDOWN_TIMEOUT were cut');
      await bus?.close();
      redis?.disconnect();
      await db.close();
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      code = 1;
    }
    process.exit(code);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  await app.listen({ port: config.port, host: config.host });
  app.log.info(
    `Sluice is serving on http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${config.port}`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
