import { describe, expect, it } from 'vitest';
import { LOG_TYPE } from '@sluice/shared';
import type { Pricing, StreamInterruption } from '@sluice/shared';
import { consumeLogRow, errorLogRow, priceSummary } from './usage-log.js';
import type { CallIdentity } from './usage-log.js';

const who: CallIdentity = {
  userId: 7,
  username: 'alice',
  tokenId: 3,
  tokenName: 'ci "bot"',
  group: 'vip',
  model: 'gpt-4o-mini',
  ip: '10.0.0.1',
  isStream: true,
  requestId: 'req-7.a_b',
};

// What the console shows in a log's details: the row as it was always written, built here the
// plain way (JSON.stringify of the object, keys in this order) to hold the writer to it byte for byte.
function expectedOther(input: {
  frt: number;
  pricing: Pricing;
  tried: number[];
  cached?: number;
  cacheWrite?: number;
  reasoning?: number;
  upstream?: string;
  formats?: { request: string; upstream: string };
}): string {
  const p = input.pricing;
  const price =
    p.billing === 'call'
      ? { model_ratio: 0, model_price: p.modelPrice, completion_ratio: 0, group_ratio: p.groupRatio }
      : {
          model_ratio: p.modelRatio,
          model_price: -1,
          completion_ratio: p.completionRatio,
          group_ratio: p.groupRatio,
          cache_ratio: p.cacheRatio,
          cache_creation_ratio: p.cacheWriteRatio,
        };
  return JSON.stringify({
    frt: input.frt,
    ...price,
    admin_info: { use_channel: input.tried.map(String) },
    ...(input.cached ? { cache_tokens: input.cached } : {}),
    ...(input.cacheWrite ? { cache_creation_tokens: input.cacheWrite } : {}),
    ...(input.reasoning ? { reasoning_tokens: input.reasoning } : {}),
    ...(input.upstream ? { upstream_model_name: input.upstream } : {}),
    ...(input.formats
      ? { request_format: input.formats.request, upstream_format: input.formats.upstream }
      : {}),
  });
}

const tokens = (p: Partial<Extract<Pricing, { billing: 'tokens' }>> = {}): Pricing => ({
  billing: 'tokens',
  modelRatio: 0.075,
  completionRatio: 4,
  groupRatio: 1,
  cacheRatio: 0.5,
  cacheWriteRatio: 1.25,
  ...p,
});

describe('usage log rows', () => {
  const cases: {
    name: string;
    pricing: Pricing;
    tried: number[];
    cached?: number;
    cacheWrite?: number;
    reasoning?: number;
    upstream?: string;
    formats?: { request: string; upstream: string };
  }[] = [
    { name: 'token pricing', pricing: tokens(), tried: [3] },
    {
      name: 'per-call pricing',
      pricing: { billing: 'call', modelPrice: 0.04, groupRatio: 1.5, quotaPerUnit: 500000 },
      tried: [3, 12],
    },
    {
      name: 'awkward decimals',
      pricing: tokens({
        modelRatio: 0.1 + 0.2,
        completionRatio: 1e-7,
        groupRatio: 2e21,
        cacheRatio: 0,
        cacheWriteRatio: 1 / 3,
      }),
      tried: [],
    },
    {
      name: 'cached tokens and a mapped model',
      pricing: tokens(),
      tried: [1, 2, 3],
      cached: 800,
      upstream: 'deploy/"4o" ✓',
    },
    {
      name: 'cache reads and writes and reasoning',
      pricing: tokens({ modelRatio: 1.5, completionRatio: 5, cacheRatio: 0.1 }),
      tried: [4],
      cached: 600,
      cacheWrite: 200,
      reasoning: 300,
    },
    {
      name: 'a Claude client converted for an OpenAI upstream',
      pricing: tokens(),
      tried: [5],
      formats: { request: 'anthropic', upstream: 'openai' },
    },
    {
      name: 'cache writes at a per-call price',
      pricing: { billing: 'call', modelPrice: 0.04, groupRatio: 1, quotaPerUnit: 500000 },
      tried: [4],
      cacheWrite: 200,
    },
  ];

  it.each(cases)('writes the consumption row of a call ($name) exactly as before', (c) => {
    const row = consumeLogRow({
      who,
      timing: { startedMs: 1_700_000_000_000, endedMs: 1_700_000_002_999, firstResponseMs: 321 },
      pricing: c.pricing,
      usage: {
        promptTokens: 1000,
        completionTokens: 500,
        cachedTokens: c.cached ?? 0,
        cacheWriteTokens: c.cacheWrite,
        reasoningTokens: c.reasoning,
      },
      quota: 225,
      channelId: 3,
      channelsTried: c.tried,
      upstreamModel: c.upstream ?? who.model,
      ...(c.formats ? { formats: c.formats } : {}),
    });
    const p = c.pricing;
    const summary =
      p.billing === 'call'
        ? `model price $${p.modelPrice}, group ratio ${p.groupRatio}`
        : `model ratio ${p.modelRatio}, completion ratio ${p.completionRatio}, group ratio ${p.groupRatio}`;
    // Cache writes change a per-token charge, so the content says so; a per-call price ignores them.
    const content =
      c.cacheWrite && p.billing === 'tokens'
        ? `${summary}; ${c.cacheWrite} prompt tokens written to the cache at cache-write ratio ${p.cacheWriteRatio}`
        : summary;
    const expected = {
      user_id: 7,
      username: 'alice',
      token_id: 3,
      token_name: 'ci "bot"',
      model_name: 'gpt-4o-mini',
      group: 'vip',
      ip: '10.0.0.1',
      is_stream: 1,
      created_at: 1_700_000_002,
      type: LOG_TYPE.consume,
      content,
      quota: 225,
      prompt_tokens: 1000,
      completion_tokens: 500,
      use_time: 2,
      channel_id: 3,
      other: expectedOther({ frt: 321, ...c }),
      request_id: 'req-7.a_b',
    };
    expect(row).toEqual(expected);
    expect(Object.keys(row)).toEqual(Object.keys(expected));
    expect(priceSummary(p)).toBe(summary);
  });

  const interrupted = (interruption: StreamInterruption) =>
    consumeLogRow({
      who,
      timing: { startedMs: 0, endedMs: 1000, firstResponseMs: 0 },
      pricing: tokens(),
      usage: { promptTokens: 1, completionTokens: 0, cachedTokens: 0 },
      quota: 1,
      channelId: 1,
      channelsTried: [1],
      interruption,
      upstreamModel: who.model,
    });

  it('records a stream the client left early in the content and as a fact', () => {
    const row = interrupted({ by: 'client' });
    expect(row.content).toBe(
      'model ratio 0.075, completion ratio 4, group ratio 1; the client disconnected before the stream ended',
    );
    expect(JSON.parse(row.other ?? '')).toMatchObject({ stream_interrupted: 'client' });
    expect(JSON.parse(row.other ?? '')).not.toHaveProperty('stream_error');
  });

  it('records a stream the upstream broke off, with its reason, in the content and as facts', () => {
    const row = interrupted({ by: 'upstream', reason: 'connection "reset"' });
    expect(row.content).toBe(
      'model ratio 0.075, completion ratio 4, group ratio 1; the stream broke off: connection "reset"',
    );
    expect(JSON.parse(row.other ?? '')).toEqual({
      frt: 0,
      model_ratio: 0.075,
      model_price: -1,
      completion_ratio: 4,
      group_ratio: 1,
      cache_ratio: 0.5,
      cache_creation_ratio: 1.25,
      admin_info: { use_channel: ['1'] },
      stream_interrupted: 'upstream',
      stream_error: 'connection "reset"',
    });
  });

  it('records the cache writes of a Claude call with their ratio, and their price apart from others', () => {
    const row = (cacheWriteRatio: number) =>
      consumeLogRow({
        who,
        timing: { startedMs: 0, endedMs: 1000, firstResponseMs: 0 },
        pricing: tokens({ modelRatio: 1.5, completionRatio: 5, cacheRatio: 0.1, cacheWriteRatio }),
        usage: { promptTokens: 10000, completionTokens: 500, cachedTokens: 6000, cacheWriteTokens: 2000 },
        quota: 11400,
        channelId: 1,
        channelsTried: [1],
        upstreamModel: who.model,
      });
    const fiveMinutes = row(1.25);
    expect(fiveMinutes.content).toBe(
      'model ratio 1.5, completion ratio 5, group ratio 1; 2000 prompt tokens written to the cache at cache-write ratio 1.25',
    );
    expect(JSON.parse(fiveMinutes.other ?? '')).toMatchObject({
      cache_ratio: 0.1,
      cache_tokens: 6000,
      cache_creation_ratio: 1.25,
      cache_creation_tokens: 2000,
    });
    // The same price but for the cache-write ratio is another price: its row must not reuse the first.
    const oneHour = row(2);
    expect(JSON.parse(oneHour.other ?? '')).toMatchObject({ cache_creation_ratio: 2 });
    expect(oneHour.content).toContain('at cache-write ratio 2');
    expect(JSON.parse(row(1.25).other ?? '')).toMatchObject({ cache_creation_ratio: 1.25 });
  });

  it('describes each price by its values, however many prices come by', () => {
    // More distinct prices than the writer keeps, each asked for twice, through new objects.
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 600; i++) {
        const pricing = tokens({ modelRatio: i / 8, groupRatio: (i % 5) / 10 });
        expect(priceSummary({ ...pricing })).toBe(
          `model ratio ${i / 8}, completion ratio 4, group ratio ${(i % 5) / 10}`,
        );
      }
    }
    // An object changed after use is described by what it says now.
    const pricing = tokens();
    expect(priceSummary(pricing)).toBe('model ratio 0.075, completion ratio 4, group ratio 1');
    Object.assign(pricing, { groupRatio: 0.8 });
    expect(priceSummary(pricing)).toBe('model ratio 0.075, completion ratio 4, group ratio 0.8');
  });

  it('writes the error row of a failed call exactly as before', () => {
    const row = errorLogRow({
      who: { ...who, isStream: false },
      timing: { startedMs: 1_700_000_000_500, endedMs: 1_700_000_001_499 },
      message: 'upstream "said" no',
      status: 502,
      channelId: 9,
      channelsTried: [4, 9],
    });
    const expected = {
      user_id: 7,
      username: 'alice',
      token_id: 3,
      token_name: 'ci "bot"',
      model_name: 'gpt-4o-mini',
      group: 'vip',
      ip: '10.0.0.1',
      is_stream: 0,
      created_at: 1_700_000_001,
      type: LOG_TYPE.error,
      content: 'upstream "said" no',
      quota: 0,
      use_time: 0,
      channel_id: 9,
      other: JSON.stringify({ status_code: 502, admin_info: { use_channel: ['4', '9'] } }),
      request_id: 'req-7.a_b',
    };
    expect(row).toEqual(expected);
    expect(Object.keys(row)).toEqual(Object.keys(expected));
  });
});
