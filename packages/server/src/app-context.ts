// What every feature receives: the database, the platform services and the configuration.
import type { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import type { Config } from './config.js';
import type { DialectName } from './db/create-db.js';
import type { Database } from './db/tables.js';
import type { SessionStore } from './features/auth/session-store.js';
import type { VerificationCodes } from './features/auth/verification-codes.js';
import type { OptionStore } from './features/options/option-store.js';
import type { CacheBus } from './platform/cache-bus.js';
import type { Clock } from './platform/clock.js';
import type { Mailer } from './platform/mailer.js';
import type { Metrics } from './platform/metrics.js';
import type { Scheduler } from './platform/scheduler.js';

/** Base URLs of outside services, so tests can point them at local fakes. */
export interface Endpoints {
  githubOAuth: string;
  githubApi: string;
  linuxdoOAuth: string;
  linuxdoApi: string;
  turnstile: string;
}

export const DEFAULT_ENDPOINTS: Endpoints = {
  githubOAuth: 'https://github.com',
  githubApi: 'https://api.github.com',
  linuxdoOAuth: 'https://connect.linux.do',
  linuxdoApi: 'https://connect.linux.do',
  turnstile: 'https://challenges.cloudflare.com',
};

export interface AppContext {
  config: Config;
  db: Kysely<Database>;
  dialect: DialectName;
  /** The SQLite database file, when the database is one (see Db). */
  sqliteFile: string | null;
  clock: Clock;
  /** When this app was built (the status's start_time), in the clock's seconds. */
  startedAt: number;
  bus: CacheBus;
  options: OptionStore;
  sessions: SessionStore;
  /** One-time codes: email verification, password reset, OAuth state. */
  codes: VerificationCodes;
  mailer: Mailer;
  endpoints: Endpoints;
  /** Background jobs, one node at a time (leader lease). Stopped when the app closes. */
  scheduler: Scheduler;
  /** This app's Prometheus metrics (GET /metrics); does nothing when METRICS_ENABLED is false. */
  metrics: Metrics;
  /** Cluster mode: the Redis every node shares (rate limits, holds; keys under config.redisPrefix). */
  redis?: Redis;
}
