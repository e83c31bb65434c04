// Environment → typed configuration. Names match one-api/new-api so existing deployments carry over.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { restrictToOwner } from './platform/owner-only.js';

export interface Config {
  port: number;
  host: string;
  /** SQLite file, used when sqlDsn is empty. */
  sqlitePath: string;
  /** postgres://… or mysql://…; overrides SQLite. */
  sqlDsn: string;
  redisUrl: string;
  /** Prefix of every Redis key and channel (REDIS_KEY_PREFIX): deployments sharing one Redis differ. */
  redisPrefix: string;
  sessionSecret: string;
  logLevel: string;
  /** Folder of the built console; served with SPA fallback when it exists. */
  webDist: string;
  /** Requests per window per IP on sign-in routes (login, register, verification, reset). */
  criticalRateLimit: { max: number; windowMs: number };
  /** bcrypt cost; tests lower it. */
  bcryptCost: number;
  /** Seconds a console session lives without use. */
  sessionTtlSeconds: number;
  /**
   * Peers (IPs or CIDRs) whose X-Forwarded-For/-Host/-Proto are believed. Empty: nobody's, so a client
   * cannot choose the address that rate limits, allow-lists and logs see.
   */
  trustedProxies: string[];
  /** Seconds calls in flight may take to finish after SIGTERM/SIGINT before they are cut. */
  shutdownTimeoutSeconds: number;
  /** Root's password on the first start; unset: the spec's 123456, which must be changed at once. */
  initialRootPassword: string | undefined;
  /** Task relays (Midjourney, Suno): how often unfinished tasks are polled, and when one gives up. */
  tasks: { pollIntervalMs: number; timeoutMinutes: number };
  /**
   * GET /metrics (Prometheus): served unless METRICS_ENABLED is false; with METRICS_TOKEN set, only to
   * a scraper sending it as a bearer token.
   */
  metrics: { enabled: boolean; token: string };
}

/** A yes/no variable such as METRICS_ENABLED: false, 0, no or off; true, 1, yes or on (any case). */
const flagFromEnv = (env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean => {
  const value = env[name];
  const v = value?.trim().toLowerCase() ?? '';
  if (v === '') return fallback;
  if (['false', '0', 'no', 'off'].includes(v)) return false;
  if (['true', '1', 'yes', 'on'].includes(v)) return true;
  throw new Error(`${name} must be true or false, got "${value}"`);
};

const intFromEnv = (value: string | undefined, fallback: number): number => {
  if (value === undefined || value.trim() === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`expected a whole number, got "${value}"`);
  return n;
};

/** TRUSTED_PROXIES: comma-separated IPs or CIDRs (new-api's name); a typo stops the start. */
export function parseTrustedProxies(value: string | undefined): string[] {
  const entries = (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  for (const entry of entries) {
    const [address = '', bits, extra] = entry.split('/');
    const family = isIP(address);
    const maxBits = family === 6 ? 128 : 32;
    const bitsOk = bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= maxBits);
    if (family === 0 || !bitsOk || extra !== undefined) {
      throw new Error(`TRUSTED_PROXIES: "${entry}" is not an IP address or CIDR range`);
    }
  }
  return entries;
}

/** Reads SESSION_SECRET, or creates one beside the SQLite file so sessions survive restarts. */
function sessionSecretFrom(env: NodeJS.ProcessEnv, dataDir: string): string {
  const given = env.SESSION_SECRET?.trim();
  if (given) return given;
  const file = join(dataDir, 'session-secret');
  if (existsSync(file)) {
    restrictToOwner(file);
    return readFileSync(file, 'utf8').trim();
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const sqlitePath = resolve(env.SQLITE_PATH?.trim() || './data/sluice.db');
  return {
    port: intFromEnv(env.PORT, 3000),
    host: env.HOST?.trim() || '0.0.0.0',
    sqlitePath,
    sqlDsn: env.SQL_DSN?.trim() ?? '',
    redisUrl: env.REDIS_CONN_STRING?.trim() ?? '',
    redisPrefix: env.REDIS_KEY_PREFIX?.trim() || 'sluice:',
    sessionSecret: sessionSecretFrom(env, dirname(sqlitePath)),
    logLevel: env.LOG_LEVEL?.trim() || 'info',
    webDist: resolve(env.WEB_DIST?.trim() || new URL('../../web/dist', import.meta.url).pathname),
    criticalRateLimit: {
      max: intFromEnv(env.CRITICAL_RATE_LIMIT, 20),
      windowMs: intFromEnv(env.CRITICAL_RATE_LIMIT_WINDOW_SECONDS, 20 * 60) * 1000,
    },
    bcryptCost: intFromEnv(env.BCRYPT_COST, 10),
    sessionTtlSeconds: intFromEnv(env.SESSION_TTL_SECONDS, 30 * 24 * 3600),
    trustedProxies: parseTrustedProxies(env.TRUSTED_PROXIES),
    shutdownTimeoutSeconds: intFromEnv(env.SHUTDOWN_TIMEOUT, 15),
    initialRootPassword: env.INITIAL_ROOT_PASSWORD || undefined,
    tasks: {
      pollIntervalMs: Math.max(1, intFromEnv(env.TASK_POLL_INTERVAL_SECONDS, 15)) * 1000,
      timeoutMinutes: Math.max(1, intFromEnv(env.TASK_TIMEOUT_MINUTES, 1440)),
    },
    metrics: {
      enabled: flagFromEnv(env, 'METRICS_ENABLED', true),
      token: env.METRICS_TOKEN?.trim() ?? '',
    },
  };
}
