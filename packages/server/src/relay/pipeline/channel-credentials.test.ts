import { describe, expect, it } from 'vitest';
import type { UpstreamRequest } from '../ir/request.js';
import type { ChannelTarget, CredentialExchange } from '../providers/types.js';
import {
  CREDENTIAL_RENEW_MARGIN_MS,
  CredentialFailure,
  channelCredential,
  forgetCredential,
  judgeCredentialFailure,
  withCredential,
} from './channel-credentials.js';
import type { UpstreamClient, UpstreamResponse } from './upstream-client.js';

const channel: ChannelTarget = { type: 41, key: 'key-a', baseUrl: '', organization: '', other: 'r' };

/** A token endpoint answering from a script, counting the exchanges it saw. */
function tokenEndpoint(answers: Array<{ status: number; body: string }>) {
  const sent: UpstreamRequest[] = [];
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const upstream: UpstreamClient = {
    async send(request) {
      sent.push(request);
      await gate;
      const answer = answers[Math.min(sent.length, answers.length) - 1] ?? { status: 500, body: '' };
      const body = Buffer.from(answer.body);
      const res: UpstreamResponse = {
        status: answer.status,
        headers: {},
        body: {
          readAll: () => Promise.resolve(body),
          destroy: () => undefined,
          async *[Symbol.asyncIterator]() {
            yield body;
          },
        },
      };
      return res;
    },
    close: () => Promise.resolve(),
  };
  return { upstream, sent, release };
}

const exchange: CredentialExchange = {
  buildRequest: (target, nowSeconds) =>
    target.key === 'unusable'
      ? Promise.reject(new Error('the key is not a service account key'))
      : Promise.resolve({
          url: 'https://token.test/',
          method: 'POST',
          headers: {},
          body: `${target.key}@${nowSeconds}`,
        }),
  parseResponse(body) {
    const { token, ttl } = JSON.parse(body.toString()) as { token: string; ttl: number };
    return { value: token, expiresInSeconds: ttl };
  },
  parseError: (_status, body) => ({ message: body.toString(), type: 'oauth', code: null }),
};

const token = (value: string, ttl = 3600) => ({ status: 200, body: JSON.stringify({ token: value, ttl }) });

describe('channel credentials', () => {
  it('makes one exchange for calls at the same time and reuses its token until near expiry', async () => {
    const endpoint = tokenEndpoint([token('t1'), token('t2')]);
    let now = 1_000_000;
    const clock = () => now;
    const first = channelCredential(endpoint.upstream, exchange, channel, clock);
    const second = channelCredential(endpoint.upstream, exchange, channel, clock);
    endpoint.release();
    expect(await Promise.all([first, second])).toEqual(['t1', 't1']);
    expect(endpoint.sent).toHaveLength(1);
    expect(endpoint.sent[0]?.body).toBe('key-a@1000');
    now += 3600_000 - CREDENTIAL_RENEW_MARGIN_MS - 1;
    expect(await channelCredential(endpoint.upstream, exchange, channel, clock)).toBe('t1');
    now += 1;
    expect(await channelCredential(endpoint.upstream, exchange, channel, clock)).toBe('t2');
    expect(endpoint.sent).toHaveLength(2);
    // Another key has its own token.
    await channelCredential(endpoint.upstream, exchange, { ...channel, key: 'key-b' }, clock);
    expect(endpoint.sent).toHaveLength(3);
  });

  it('exchanges the key again once the upstream refused its token', async () => {
    const endpoint = tokenEndpoint([token('dead'), token('fresh')]);
    endpoint.release();
    expect(await channelCredential(endpoint.upstream, exchange, channel)).toBe('dead');
    forgetCredential(endpoint.upstream, channel);
    expect(await channelCredential(endpoint.upstream, exchange, channel)).toBe('fresh');
    expect(await channelCredential(endpoint.upstream, exchange, channel)).toBe('fresh');
    expect(endpoint.sent).toHaveLength(2);
  });

  it('gives buildRequest the channel with its credential, and other adapters the channel as it is', async () => {
    const endpoint = tokenEndpoint([token('t-x')]);
    endpoint.release();
    expect(await withCredential(endpoint.upstream, exchange, channel)).toEqual({
      ...channel,
      credential: 't-x',
    });
    expect(await withCredential(endpoint.upstream, undefined, channel)).toBe(channel);
  });

  it('calls a refused key definitive, a failing endpoint not, and keeps nothing from either', async () => {
    const endpoint = tokenEndpoint([
      { status: 400, body: 'invalid_grant: Invalid JWT Signature.' },
      { status: 503, body: 'try later' },
      token('t-ok'),
    ]);
    endpoint.release();
    const refused = await channelCredential(endpoint.upstream, exchange, channel).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(CredentialFailure);
    expect(refused).toMatchObject({
      definitive: true,
      message: expect.stringMatching(/Invalid JWT Signature/),
    });
    const busy = await channelCredential(endpoint.upstream, exchange, channel).catch((e: unknown) => e);
    expect(busy).toMatchObject({ definitive: false });
    expect(await channelCredential(endpoint.upstream, exchange, channel)).toBe('t-ok');
  });

  it('refuses an unusable key before sending anything, definitively', async () => {
    const endpoint = tokenEndpoint([]);
    endpoint.release();
    const failure = await channelCredential(endpoint.upstream, exchange, {
      ...channel,
      key: 'unusable',
    }).catch((e: unknown) => e);
    expect(failure).toMatchObject({
      definitive: true,
      message: expect.stringMatching(/not a service account/),
    });
    expect(endpoint.sent).toHaveLength(0);
  });

  it("tells the caller the service is unavailable, never the token endpoint's 400", () => {
    const judged = judgeCredentialFailure(
      new CredentialFailure(
        'the token endpoint refused the channel key-secret-123456 (400): invalid_grant',
        true,
      ),
      'key-secret-123456',
    );
    expect(judged.error).toMatchObject({ status: 503, code: 'upstream_unavailable' });
    expect(judged.error.message).not.toContain('key-secret-123456');
    expect(judged.retry).toBe(true);
    expect(judged.outcome).toMatchObject({ ok: false, definitive: true });
    expect(judgeCredentialFailure(new CredentialFailure('busy', false)).outcome).toMatchObject({
      ok: false,
      definitive: false,
    });
  });
});
