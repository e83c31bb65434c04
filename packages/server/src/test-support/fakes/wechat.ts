// Fake WeChat login server (the companion service of the official account): the user sends a word
// to the account, gets a short code, and the gateway trades the code for the user's openid.
import { randomInt } from 'node:crypto';
import { startFakeServer } from './http-fake.js';
import type { FakeServer } from './http-fake.js';

export interface FakeWeChat extends FakeServer {
  /** The code the account would send to the user with this openid. */
  issueCode(openid: string): string;
}

export async function startFakeWeChat(opts: { token: string }): Promise<FakeWeChat> {
  const codes = new Map<string, string>();
  const server = await startFakeServer((req) => {
    if (req.method !== 'GET' || req.path !== '/api/wechat/user') return { status: 404, json: {} };
    if (req.headers.authorization !== opts.token) {
      return { status: 401, json: { success: false, message: 'unauthorized', data: '' } };
    }
    const code = req.query.get('code') ?? '';
    const openid = codes.get(code);
    if (!openid) return { json: { success: false, message: 'invalid or expired code', data: '' } };
    codes.delete(code);
    return { json: { success: true, message: '', data: openid } };
  });
  return {
    ...server,
    issueCode(openid) {
      const code = String(randomInt(100000, 1000000));
      codes.set(code, openid);
      return code;
    },
  };
}
