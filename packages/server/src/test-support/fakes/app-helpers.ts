// Helpers for tests that drive sign-in flows against the fakes: options, a clock the test moves,
// and a caller that fails the test when an answer carries a secret.
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { Clock } from '../../platform/clock.js';
import { SESSION_COOKIE } from '../../http/auth-guard.js';
import type { Caller, TestApp } from '../test-app.js';

export async function setOptions(t: TestApp, values: Record<string, string>): Promise<void> {
  for (const [key, value] of Object.entries(values)) await t.app.ctx.options.set(key, value);
  await t.app.ctx.options.reload();
}

export interface ManualClock extends Clock {
  advance(seconds: number): void;
}

export function manualClock(start = 1_800_000_000): ManualClock {
  let seconds = start;
  return {
    now: () => seconds,
    nowMs: () => seconds * 1000,
    advance(by) {
      seconds += by;
    },
  };
}

/** t.call that also asserts none of the secrets appears anywhere in the answer. */
export function guardedCall(t: TestApp, secrets: string[]) {
  return async (opts: InjectOptions & { as?: Caller }): Promise<LightMyRequestResponse> => {
    const res = await t.call(opts);
    const seen = `${JSON.stringify(res.headers)}\n${res.body}`;
    for (const secret of secrets)
      expect(seen, `answer of ${String(opts.url)} leaks a secret`).not.toContain(secret);
    return res;
  };
}

/** The caller a sign-in answer created: its session cookie and the New-Api-User header. */
export function callerFrom(res: LightMyRequestResponse): Caller {
  const body = res.json<{ data: { id: number; username: string; role: number } }>();
  const cookie = res.cookies.find((c) => c.name === SESSION_COOKIE);
  if (!cookie) throw new Error('the answer did not set a session cookie');
  return {
    id: body.data.id,
    username: body.data.username,
    password: '',
    role: body.data.role,
    headers: {
      cookie: `${SESSION_COOKIE}=${encodeURIComponent(cookie.value)}`,
      'new-api-user': String(body.data.id),
    },
  };
}
