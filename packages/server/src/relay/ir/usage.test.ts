import { describe, expect, it } from 'vitest';
import { parseOpenAiResponse } from '../providers/openai/response.js';
import { toOpenAiEvent } from '../providers/openai/stream.js';
import { sseEvent } from '../sse.js';
import { MAX_TOKENS_PER_CALL, trustedUsage, upstreamTokenCount } from './usage.js';

// Counts an upstream may send that must never reach billing.
const UNBELIEVABLE: unknown[] = [
  -1,
  1.5,
  '12',
  Number.NaN,
  Number.POSITIVE_INFINITY,
  1e300,
  MAX_TOKENS_PER_CALL + 1,
  true,
  {},
];

describe('token counts from an upstream', () => {
  it('takes whole non-negative counts up to the bound, and a missing count as 0', () => {
    expect(upstreamTokenCount(0)).toBe(0);
    expect(upstreamTokenCount(1234)).toBe(1234);
    expect(upstreamTokenCount(MAX_TOKENS_PER_CALL)).toBe(MAX_TOKENS_PER_CALL);
    expect(upstreamTokenCount(undefined)).toBe(0);
    expect(upstreamTokenCount(null)).toBe(0);
  });

  it.each(UNBELIEVABLE)('does not believe %s', (value) => {
    expect(upstreamTokenCount(value)).toBeNull();
    expect(trustedUsage({ prompt: 10, completion: value, cached: 0 })).toBeUndefined();
    expect(trustedUsage({ prompt: value, completion: 10, cached: 0 })).toBeUndefined();
    expect(trustedUsage({ prompt: 10, completion: 10, cached: value })).toBeUndefined();
  });

  it('never counts more cached tokens than prompt tokens', () => {
    expect(trustedUsage({ prompt: 10, completion: 5, cached: 40 })).toEqual({
      promptTokens: 10,
      completionTokens: 5,
      cachedTokens: 10,
    });
  });
});

describe('OpenAI usage with unbelievable counts falls back to the local count', () => {
  const answer = (usage: object) =>
    Buffer.from(
      JSON.stringify({ choices: [{ message: { role: 'assistant', content: 'hi there' } }], usage }),
    );

  it('keeps believable usage of an answer', () => {
    const parsed = parseOpenAiResponse(
      answer({ prompt_tokens: 12, completion_tokens: 3, prompt_tokens_details: { cached_tokens: 4 } }),
    );
    expect(parsed.usage).toEqual({ promptTokens: 12, completionTokens: 3, cachedTokens: 4 });
  });

  // NaN and Infinity cannot travel in JSON (they arrive as null, a missing count).
  const inJson = UNBELIEVABLE.filter((value) => typeof value !== 'number' || Number.isFinite(value));
  it.each(inJson)('leaves the usage of an answer out when a count is %s', (value) => {
    expect(
      parseOpenAiResponse(answer({ prompt_tokens: 12, completion_tokens: value })).usage,
    ).toBeUndefined();
    expect(parseOpenAiResponse(answer({ prompt_tokens: value, completion_tokens: 3 })).usage).toBeUndefined();
  });

  it('still recognises an unbelievable usage chunk of a stream as the usage chunk', () => {
    const data = JSON.stringify({ choices: [], usage: { prompt_tokens: -5, completion_tokens: 1e300 } });
    const event = toOpenAiEvent(sseEvent(data));
    expect(event.usage).toBeUndefined();
    // Stripped from the client stream like any usage chunk the client did not ask for.
    expect(event.usageOnly).toBe(true);
  });
});
