// Everything the relay keeps between calls, one per app: the upstream connection pools, the
// credential and channel caches, the circuit breaker and the usage-statistics recorder. (The app's
// metrics are the context's: `ctx.metrics`.)
import type { AppContext } from '../../app-context.js';
import { createClusterHolds } from '../../billing/cluster-holds.js';
import { createLedgerStore } from '../../billing/ledger-store.js';
import { createLedgerWriter } from '../../billing/ledger-writer.js';
import type { LedgerWriter } from '../../billing/ledger-writer.js';
import { createQuotaDataRecorder } from '../../billing/quota-data.js';
import type { QuotaDataRecorder } from '../../billing/quota-data.js';
import { createCredentialCache } from '../auth/credential-cache.js';
import type { CredentialCache } from '../auth/credential-cache.js';
import { createChannelStore } from './channel-store.js';
import type { ChannelStore } from './channel-store.js';
import { DEFAULT_BREAKER, createCircuitBreaker } from './circuit-breaker.js';
import type { CircuitBreaker } from './circuit-breaker.js';
import { createUpstreamClient, relayTimeoutsFromEnv } from './upstream-client.js';
import type { UpstreamClient } from './upstream-client.js';

export interface RelayLogger {
  error(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  /** The access log line of each relay call (relay.routes.ts); LOG_LEVEL=warn silences it. */
  info(obj: object, msg: string): void;
}

export interface RelayRuntime {
  ctx: AppContext;
  upstream: UpstreamClient;
  credentials: CredentialCache;
  channels: ChannelStore;
  breaker: CircuitBreaker;
  ledger: LedgerWriter;
  quotaData: QuotaDataRecorder;
  logger: RelayLogger;
  /** Runs `stop` when the runtime closes (timers of background work). */
  onClose(stop: () => void): void;
  close(): Promise<void>;
}

const runtimes = new WeakMap<AppContext, RelayRuntime>();

const silent: RelayLogger = {
  error: () => undefined,
  warn: () => undefined,
  info: () => undefined,
};

/** The app's relay runtime, created on first use. */
export function relayRuntime(ctx: AppContext, logger: RelayLogger = silent): RelayRuntime {
  const existing = runtimes.get(ctx);
  if (existing) return existing;
  const upstream = createUpstreamClient(relayTimeoutsFromEnv(process.env));
  const credentials = createCredentialCache(ctx.db, ctx.bus);
  const stops: Array<() => void> = [];
  const runtime: RelayRuntime = {
    ctx,
    upstream,
    credentials,
    channels: createChannelStore(ctx.db, ctx.bus, (error) =>
      runtime.logger.error({ err: error }, 'could not load the channel index'),
    ),
    breaker: createCircuitBreaker(DEFAULT_BREAKER, () => ctx.options.get('AutomaticDisableKeywords')),
    ledger: createLedgerWriter(createLedgerStore(ctx), {
      bus: ctx.bus,
      // Cluster mode: holds are taken in Redis, where every node sees them.
      ...(ctx.redis
        ? {
            cluster: createClusterHolds(ctx.redis, {
              prefix: ctx.config.redisPrefix,
              onError: (error) => runtime.logger.error({ err: error }, 'cluster holds: Redis did not answer'),
            }),
          }
        : {}),
      onError: (error, settlement) =>
        runtime.logger.error(
          { err: error, userId: settlement?.hold.userId },
          'could not write the billing of relay calls',
        ),
      ...(ctx.metrics.enabled
        ? { onBatch: (calls: number, lagMs: number) => ctx.metrics.ledgerBatch(calls, lagMs) }
        : {}),
    }),
    quotaData: createQuotaDataRecorder(ctx.db, ctx.dialect),
    logger,
    onClose: (stop) => stops.push(stop),
    async close() {
      runtimes.delete(ctx);
      for (const stop of stops.splice(0)) stop();
      // Graceful shutdown: every settled call is written before the process goes.
      await runtime.ledger.close();
      credentials.close();
      runtime.channels.close();
      await runtime.quotaData.flush().catch((error: unknown) => {
        runtime.logger.error({ err: error }, 'could not write usage statistics');
      });
      await upstream.close();
    },
  };
  ctx.metrics.watchLedger(runtime.ledger);
  runtimes.set(ctx, runtime);
  return runtime;
}

/** Waits until the billing of every call settled so far is in the database (tests, shutdown checks). */
export async function flushRelayBilling(ctx: AppContext): Promise<void> {
  await runtimes.get(ctx)?.ledger.drain();
}
