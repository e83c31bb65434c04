// Background jobs that must run on one node at a time: each job holds a lease row in job_leases
// and runs only while the lease is its node's. A node that dies loses the lease when it expires.
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/tables.js';
import type { Clock } from './clock.js';

export interface Scheduler {
  /** Runs `task` every `intervalMs` on the node holding the job's lease. */
  every(name: string, intervalMs: number, task: () => Promise<void>): void;
  /** Runs one job now if this node can take its lease; for tests and manual triggers. */
  runNow(name: string): Promise<boolean>;
  stop(): void;
}

export function createScheduler(deps: {
  db: Kysely<Database>;
  clock: Clock;
  log: FastifyBaseLogger;
}): Scheduler {
  const holder = randomUUID();
  const timers: NodeJS.Timeout[] = [];
  const jobs = new Map<string, { intervalMs: number; task: () => Promise<void>; running: boolean }>();

  /** Takes or renews the lease; true when this node holds it afterwards. */
  async function acquire(name: string, leaseSeconds: number): Promise<boolean> {
    const now = deps.clock.now();
    const expires = now + leaseSeconds;
    const renewed = await deps.db
      .updateTable('job_leases')
      .set({ holder, expires_at: expires })
      .where('name', '=', name)
      .where((eb) => eb.or([eb('holder', '=', holder), eb('expires_at', '<', now)]))
      .executeTakeFirst();
    if (Number(renewed.numUpdatedRows) > 0) return true;
    try {
      await deps.db.insertInto('job_leases').values({ name, holder, expires_at: expires }).execute();
      return true;
    } catch {
      // Another node holds it (the row exists and is live).
      return false;
    }
  }

  async function run(name: string): Promise<boolean> {
    const job = jobs.get(name);
    if (!job || job.running) return false;
    const leaseSeconds = Math.max(10, Math.ceil((job.intervalMs * 3) / 1000));
    if (!(await acquire(name, leaseSeconds))) return false;
    job.running = true;
    try {
      await job.task();
    } catch (error) {
      deps.log.error({ err: error, job: name }, 'background job failed');
    } finally {
      job.running = false;
    }
    return true;
  }

  return {
    every(name, intervalMs, task) {
      jobs.set(name, { intervalMs, task, running: false });
      const timer = setInterval(() => void run(name), intervalMs);
      timer.unref();
      timers.push(timer);
    },
    runNow: run,
    stop() {
      for (const timer of timers.splice(0)) clearInterval(timer);
    },
  };
}
