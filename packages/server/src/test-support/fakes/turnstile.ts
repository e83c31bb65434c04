// Fake Cloudflare Turnstile siteverify: a token passes when it is in the passing set and the
// secret matches.
import { startFakeServer } from './http-fake.js';
import type { FakeServer } from './http-fake.js';

export const TURNSTILE_PASS = 'human-token';

export async function startFakeTurnstile(opts: { secret: string }): Promise<FakeServer> {
  return startFakeServer((req) => {
    if (req.method !== 'POST' || req.path !== '/turnstile/v0/siteverify') return { status: 404, json: {} };
    if (req.fields.secret !== opts.secret) {
      return { json: { success: false, 'error-codes': ['invalid-input-secret'] } };
    }
    if (req.fields.response !== TURNSTILE_PASS) {
      return { json: { success: false, 'error-codes': ['invalid-input-response'] } };
    }
    return { json: { success: true, 'error-codes': [] } };
  });
}
