// Builds the real app on a throw-away database, with helpers to sign in as anyone.
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { ROLE } from '@sluice/shared';
import { buildApp } from '../app.js';
import type { AppDeps } from '../app.js';
import type { Config } from '../config.js';
import type { DialectName } from '../db/create-db.js';
import { hashPassword } from '../features/auth/password.js';
import { SESSION_COOKIE } from '../http/auth-guard.js';
import { randomString } from '../platform/random.js';
import { insertId } from '../db/insert-id.js';
import { createTestDb } from './databases.js';
import type { TestDb } from './databases.js';

export const testConfig = (overrides: Partial<Config> = {}): Config => ({
  port: 0,
  host: '127.0.0.1',
  sqlitePath: '',
  sqlDsn: '',
  redisUrl: '',
  redisPrefix: 'sluice:',
  sessionSecret: 'test-secret-that-is-long-enough-for-cookies',
  logLevel: 'silent',
  webDist: '/nonexistent',
  criticalRateLimit: { max: 10_000, windowMs: 60_000 },
  bcryptCost: 4,
  sessionTtlSeconds: 3600,
  trustedProxies: [],
  shutdownTimeoutSeconds: 15,
  initialRootPassword: undefined,
  tasks: { pollIntervalMs: 15_000, timeoutMinutes: 1440 },
  metrics: { enabled: true, token: '' },
  ...overrides,
});

/** A signed-in caller: pass `as` to `call` to send its cookie and New-Api-User header. */
export interface Caller {
  id: number;
  username: string;
  password: string;
  role: number;
  headers: Record<string, string>;
}

export interface TestApp {
  app: FastifyInstance;
  db: TestDb;
  /** app.inject with the caller's cookie and header. */
  call(opts: InjectOptions & { as?: Caller }): Promise<LightMyRequestResponse>;
  /** Creates a user directly in the database and signs it in. */
  createUser(opts?: {
    role?: number;
    username?: string;
    password?: string;
    quota?: number;
    group?: string;
  }): Promise<Caller>;
  /** Signs in through POST /api/user/login. */
  login(username: string, password: string): Promise<Caller>;
  close(): Promise<void>;
}

export async function createTestApp(
  opts: { dialect?: DialectName; config?: Partial<Config> } & Omit<Partial<AppDeps>, 'config' | 'db'> = {},
): Promise<TestApp> {
  const db = await createTestDb(opts.dialect ?? 'sqlite');
  const { dialect: _d, config, ...rest } = opts;
  const app = await buildApp({ ...rest, config: testConfig(config), db });
  await app.ready();

  const sessionHeaders = async (userId: number): Promise<Record<string, string>> => {
    const sessionId = await app.ctx.sessions.create(userId);
    const signed = app.signCookie(sessionId);
    return { cookie: `${SESSION_COOKIE}=${encodeURIComponent(signed)}`, 'new-api-user': String(userId) };
  };

  const testApp: TestApp = {
    app,
    db,
    call({ as, headers, ...rest }) {
      return app.inject({ ...rest, headers: { ...as?.headers, ...headers } });
    },
    async createUser(o = {}) {
      const username = o.username ?? `u${randomString(8).toLowerCase()}`;
      const password = o.password ?? 'password123';
      const role = o.role ?? ROLE.user;
      const id = await insertId(
        db.db.insertInto('users').values({
          username,
          password: await hashPassword(password, 4),
          display_name: username,
          role,
          quota: o.quota ?? 0,
          group: o.group ?? 'default',
          aff_code: randomString(8),
          access_token: null,
        }),
        db.dialect,
      );
      return { id, username, password, role, headers: await sessionHeaders(id) };
    },
    async login(username, password) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/user/login',
        payload: { username, password },
      });
      const body = res.json<{ success: boolean; message: string; data: { id: number; role: number } }>();
      if (!body.success) throw new Error(`login failed: ${body.message}`);
      const setCookie = res.cookies.find((c) => c.name === SESSION_COOKIE);
      if (!setCookie) throw new Error('login did not set the session cookie');
      return {
        id: body.data.id,
        username,
        password,
        role: body.data.role,
        headers: {
          cookie: `${SESSION_COOKIE}=${encodeURIComponent(setCookie.value)}`,
          'new-api-user': String(body.data.id),
        },
      };
    },
    async close() {
      await app.close();
      await db.dispose();
    },
  };
  return testApp;
}

/**
 * A console-API refusal as new-api answers it: HTTP 200, `success: false`, and the reason in
 * `message` (checked when given).
 */
export function expectRefusal(res: LightMyRequestResponse, message?: string | RegExp): void {
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json<{ success: boolean; message: string }>();
  expect(body.success, res.body).toBe(false);
  if (typeof message === 'string') expect(body.message).toBe(message);
  else if (message) expect(body.message).toMatch(message);
}
