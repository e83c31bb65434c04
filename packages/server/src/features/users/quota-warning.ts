// The low-quota warning. After each billing batch commits, the ledger reports the balances it read
// (billing/ledger-writer.ts, onCommitted); a user whose charge left the balance below their
// threshold gets one warning, by mail or webhook, and no other until the balance is back at or
// above the threshold. Users without personal settings are warned by mail at the site's
// QuotaRemindThreshold when their account has an email (new-api's default).
//
// Nothing here runs on a request's path: each user's settings are read from the database once and
// kept in memory (dropped when the user's row is announced as changed), so a batch costs no read.
// "Already warned" is quota_warned_at in the users row, claimed with a conditional UPDATE, so a
// restart or a second node never sends the same warning twice.
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { formatQuota, parseUserSetting } from '@sluice/shared';
import type { AppContext } from '../../app-context.js';
import type { CommittedBatch } from '../../billing/ledger-writer.js';
import type { Database } from '../../db/tables.js';
import { flushRelayBilling, relayRuntime } from '../../relay/pipeline/relay-runtime.js';
import { deliverWarning, quotaWarning } from './quota-warning-delivery.js';
import type { QuotaWarning, WarningTarget } from './quota-warning-delivery.js';

/** What is kept in memory per user. */
interface Watch {
  /** null = the site's QuotaRemindThreshold. */
  threshold: number | null;
  target: WarningTarget;
  /** A warning went out and the balance has not been back at the threshold since. */
  warned: boolean;
}

export interface QuotaWarner {
  /** The ledger's listener: returns at once, the work goes on in the background. */
  observe(batch: CommittedBatch): void;
  /** Resolves when every check and warning started so far has finished. */
  idle(): Promise<void>;
  /** Stops listening for changes; checks after this are ignored. Waits for the ones running. */
  close(): Promise<void>;
}

export interface QuotaWarnerDeps {
  db: Kysely<Database>;
  bus: AppContext['bus'];
  clock: AppContext['clock'];
  options: AppContext['options'];
  mailer: AppContext['mailer'];
  log: { warn(obj: object, msg: string): void };
}

/** The row's settings as a watch; null when the user cannot be warned. */
function watchOf(row: {
  email: string;
  setting: string | null;
  quota_warned_at: number;
  deleted_at: number | null;
}): Watch | null {
  if (row.deleted_at !== null) return null;
  const warned = Number(row.quota_warned_at) > 0;
  const setting = parseUserSetting(row.setting);
  if (setting === null) {
    return row.email === '' ? null : { threshold: null, target: { kind: 'email', to: row.email }, warned };
  }
  if (setting.notify_type === 'webhook') {
    return {
      threshold: setting.quota_warning_threshold,
      target: { kind: 'webhook', url: setting.webhook_url, secret: setting.webhook_secret },
      warned,
    };
  }
  const to = setting.notification_email || row.email;
  return to === ''
    ? null
    : { threshold: setting.quota_warning_threshold, target: { kind: 'email', to }, warned };
}

export function createQuotaWarner(deps: QuotaWarnerDeps): QuotaWarner {
  const { db, options } = deps;
  const watches = new Map<number, Watch | null>();
  const loading = new Map<number, Promise<Watch | null>>();
  /** Bumped by every announcement, so a read that started before one is not kept. */
  let generation = 0;
  const running = new Set<Promise<void>>();
  let closed = false;

  const unsubscribe = deps.bus.subscribe('users', (payload) => {
    generation++;
    const id = payload === undefined ? Number.NaN : Number(payload);
    if (Number.isInteger(id)) watches.delete(id);
    else watches.clear();
  });

  function track(work: Promise<void>): Promise<void> {
    const task = work.catch((error: unknown) => deps.log.warn({ err: error }, 'quota warning failed'));
    running.add(task);
    void task.finally(() => running.delete(task));
    return task;
  }

  /** A user's claims and re-arms run one after another, in the order the batches came. */
  const queues = new Map<number, Promise<void>>();
  function serial(userId: number, work: () => Promise<void>): void {
    const next = track((queues.get(userId) ?? Promise.resolve()).then(work));
    queues.set(userId, next);
    void next.finally(() => {
      if (queues.get(userId) === next) queues.delete(userId);
    });
  }

  function load(userId: number): Promise<Watch | null> {
    const pending = loading.get(userId);
    if (pending) return pending;
    const startedAt = generation;
    const read = db
      .selectFrom('users')
      .select(['email', 'setting', 'quota_warned_at', 'deleted_at'])
      .where('id', '=', userId)
      .executeTakeFirst()
      .then((row) => {
        const watch = row ? watchOf(row) : null;
        if (generation === startedAt) watches.set(userId, watch);
        return watch;
      })
      .finally(() => loading.delete(userId));
    loading.set(userId, read);
    return read;
  }

  const thresholdOf = (watch: Watch) => watch.threshold ?? options.get('QuotaRemindThreshold');

  /** Decides from memory; only a warning to send or a re-arm touches the database. */
  function check(userId: number, watch: Watch | null, balance: number, charged: boolean): void {
    if (watch === null || closed) return;
    const threshold = thresholdOf(watch);
    if (balance < threshold) {
      if (watch.warned || !charged) return;
      // Without SMTP the warning waits (unclaimed) until the site can send it.
      if (watch.target.kind === 'email' && !deps.mailer.configured()) return;
      watch.warned = true;
      serial(userId, () => warn(userId, watch.target, balance, threshold));
    } else if (watch.warned) {
      watch.warned = false;
      serial(userId, () => rearm(userId));
    }
  }

  async function warn(
    userId: number,
    target: WarningTarget,
    balance: number,
    threshold: number,
  ): Promise<void> {
    const now = deps.clock.now();
    const claimed = await db
      .updateTable('users')
      .set({ quota_warned_at: now })
      .where('id', '=', userId)
      .where('quota_warned_at', '=', 0)
      .executeTakeFirst();
    // Another node (or this one before a restart) already warned.
    if (Number(claimed.numUpdatedRows) === 0) return;
    await deliverWarning(deps.mailer, target, warningFor(balance, threshold, now));
  }

  function warningFor(balance: number, threshold: number, now: number): QuotaWarning {
    const display = {
      displayInCurrency: options.get('DisplayInCurrencyEnabled'),
      quotaPerUnit: options.get('QuotaPerUnit'),
    };
    const serverAddress = options.get('ServerAddress').replace(/\/+$/, '');
    const topUpLink = options.get('TopUpLink') || (serverAddress === '' ? '' : `${serverAddress}/topup`);
    return quotaWarning({
      remaining: formatQuota(balance, display),
      threshold: formatQuota(threshold, display),
      topUpLink,
      now,
    });
  }

  async function rearm(userId: number): Promise<void> {
    const result = await db
      .updateTable('users')
      .set({ quota_warned_at: 0 })
      .where('id', '=', userId)
      .where('quota_warned_at', '<>', 0)
      .executeTakeFirst();
    // Other nodes may hold "warned" in memory: they read the row again.
    if (Number(result.numUpdatedRows) > 0) deps.bus.publish('users', String(userId));
  }

  return {
    observe(batch) {
      if (closed) return;
      for (const [userId, balance] of batch.userBalances) {
        const charged = batch.charged.has(userId);
        if (watches.has(userId)) {
          check(userId, watches.get(userId) ?? null, balance, charged);
          continue;
        }
        void track(load(userId).then((watch) => check(userId, watch, balance, charged)));
      }
    },
    async idle() {
      while (running.size > 0) await Promise.allSettled([...running]);
    },
    async close() {
      closed = true;
      unsubscribe();
      await this.idle();
    },
  };
}

const warners = new WeakMap<AppContext, QuotaWarner>();

/** Hooks the quota warning to the relay's ledger once the app is ready, and stops it on close. */
export function registerQuotaWarnings(app: FastifyInstance, ctx: AppContext): void {
  const warner = createQuotaWarner({ ...ctx, log: app.log });
  warners.set(ctx, warner);
  let stop: (() => void) | undefined;
  app.addHook('onReady', async () => {
    stop = relayRuntime(ctx, app.log).ledger.onCommitted((batch) => warner.observe(batch));
  });
  app.addHook('onClose', async () => {
    // Billing settled before the close is written first, so its warnings are not lost.
    await flushRelayBilling(ctx);
    stop?.();
    await warner.close();
  });
}

/** Waits for the billing written so far and the warnings it caused (tests). */
export async function quotaWarningsSent(ctx: AppContext): Promise<void> {
  await flushRelayBilling(ctx);
  await warners.get(ctx)?.idle();
}
