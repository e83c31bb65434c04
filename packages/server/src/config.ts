// Environment → typed configuration. Names match one-api/new-api so existing deployments carry over.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

export interface Config {
  port: number;
  host: string;
  /** SQLite file, used when sqlDsn is empty. */
  sqlitePath: string;
  /** postgres://… or mysql://…; overrides SQLite. */
  sqlDsn: string;
  redisUrl: string;
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
}

const intFromEnv = (value: string | undefined, fallback: number): number => {
  if (value === undefined || value.trim() === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`expected a whole number, got "${value}"`);
  return n;
};

/** Reads SESSION_SECRET, or creates one beside the SQLite file so sessions survive restarts. */
function sessionSecretFrom(env: NodeJS.ProcessEnv, dataDir: string): string {
  const given = env.SESSION_SECRET?.trim();
  if (given) return given;
  const file = join(dataDir, 'session-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
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
    sessionSecret: sessionSecretFrom(env, dirname(sqlitePath)),
    logLevel: env.LOG_LEVEL?.trim() || 'info',
    webDist: resolve(env.WEB_DIST?.trim() || new URL('../../web/dist', import.meta.url).pathname),
    criticalRateLimit: {
      max: intFromEnv(env.CRITICAL_RATE_LIMIT, 20),
      windowMs: intFromEnv(env.CRITICAL_RATE_LIMIT_WINDOW_SECONDS, 20 * 60) * 1000,
    },
    bcryptCost: intFromEnv(env.BCRYPT_COST, 10),
    sessionTtlSeconds: intFromEnv(env.SESSION_TTL_SECONDS, 30 * 24 * 3600),
  };
}
