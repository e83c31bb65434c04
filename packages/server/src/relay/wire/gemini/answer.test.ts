import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ChatAnswer } from '../../ir/chat.js';
import { RelayError } from '../../ir/errors.js';
import { geminiCodec, geminiErrorBody, geminiUsage } from './index.js';

const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8')) as unknown;

const IDENTITY = { id: 'resp-1', model: 'gemini-2.5-pro', created: 1_700_000_000 };

const candidateWith = (finishReason: string, parts: unknown[] = [{ text: 'partial' }]) => ({
  candidates: [{ content: { role: 'model', parts }, finishReason, index: 0 }],
});

describe('a Gemini answer', () => {
  const answer = geminiCodec.decodeAnswer(fixture('answer-tools.json'));

  it('keeps thoughts, text and the function call in order, with the call signature before the call', () => {
    expect(answer.parts).toEqual([
      {
        type: 'reasoning',
        text: '**Checking the forecast**\nThe user asks about Boston, so I will call get_weather.',
        signature: undefined,
      },
      { type: 'text', text: 'Let me look that up.' },
      { type: 'reasoning', text: '', signature: 'CrcCAdHtim9kL3Bx0Qk7yZ1dGVzdHNpZ25hdHVyZQ==' },
      {
        type: 'tool_call',
        id: 'call_mBkWaOXkJ8W1nvgP5cSu8Aw_0',
        name: 'get_weather',
        arguments: '{"location":"Boston, MA","unit":"celsius"}',
      },
    ]);
  });

  it('ends a turn with function calls as tool_calls although Gemini says STOP', () => {
    expect(answer.finishReason).toBe('tool_calls');
    expect(answer.id).toBe('mBkWaOXkJ8W1nvgP5cSu8Aw');
    expect(answer.model).toBe('gemini-2.5-flash');
  });

  it('bills thoughts as completion tokens and cached tokens inside the prompt', () => {
    expect(answer.usage).toEqual({
      promptTokens: 1250,
      completionTokens: 152,
      cachedTokens: 1024,
      reasoningTokens: 124,
    });
  });

  it('maps the other finish reasons', () => {
    expect(geminiCodec.decodeAnswer(candidateWith('MAX_TOKENS')).finishReason).toBe('length');
    expect(geminiCodec.decodeAnswer(candidateWith('SAFETY', [])).finishReason).toBe('content_filter');
    expect(geminiCodec.decodeAnswer(candidateWith('RECITATION')).finishReason).toBe('content_filter');
    expect(geminiCodec.decodeAnswer(candidateWith('PROHIBITED_CONTENT')).finishReason).toBe('content_filter');
    expect(geminiCodec.decodeAnswer(candidateWith('STOP')).finishReason).toBe('stop');
  });

  it('reads a prompt Gemini blocked as an empty answer stopped by the content filter', () => {
    const blocked = geminiCodec.decodeAnswer({
      promptFeedback: { blockReason: 'SAFETY', safetyRatings: [] },
      usageMetadata: { promptTokenCount: 12, totalTokenCount: 12 },
      modelVersion: 'gemini-2.5-flash',
    });
    expect(blocked.parts).toEqual([]);
    expect(blocked.finishReason).toBe('content_filter');
    expect(blocked.usage).toMatchObject({ promptTokens: 12, completionTokens: 0 });
  });

  it('throws on a body that is not a Gemini answer', () => {
    expect(() => geminiCodec.decodeAnswer('oops')).toThrow(/not a JSON object/);
    expect(() => geminiCodec.decodeAnswer([])).toThrow(/not a JSON object/);
    expect(() => geminiCodec.decodeAnswer({ choices: [] })).toThrow(/no candidates/);
  });

  it('does not believe unbelievable counts, so Sluice counts the call itself', () => {
    const usage = (u: Record<string, unknown>) => geminiUsage(u);
    expect(usage({ promptTokenCount: 10, candidatesTokenCount: -3 })).toBeUndefined();
    expect(usage({ promptTokenCount: 10, thoughtsTokenCount: 1.5 })).toBeUndefined();
    expect(usage({ promptTokenCount: '10' })).toBeUndefined();
    expect(usage({ promptTokenCount: 10, cachedContentTokenCount: 50 })).toMatchObject({ cachedTokens: 10 });
    expect(geminiUsage(undefined)).toBeUndefined();
  });

  it('counts tokens the server-side tools fed the model as prompt tokens', () => {
    expect(
      geminiUsage({ promptTokenCount: 100, toolUsePromptTokenCount: 40, candidatesTokenCount: 5 }),
    ).toMatchObject({
      promptTokens: 140,
      completionTokens: 5,
    });
  });
});

describe('an answer for a Gemini client', () => {
  const answer: ChatAnswer = {
    id: 'chatcmpl-1',
    model: 'gpt-4o',
    parts: [
      { type: 'reasoning', text: 'Need the weather.', signature: 'c2ln' },
      { type: 'text', text: 'Checking.' },
      { type: 'tool_call', id: 'call_9', name: 'get_weather', arguments: '{"city":"Oslo"}' },
      { type: 'tool_call', id: 'call_10', name: 'broken', arguments: '{"city":' },
    ],
    finishReason: 'tool_calls',
    usage: { promptTokens: 200, completionTokens: 90, cachedTokens: 0, reasoningTokens: 30 },
  };
  const body = JSON.parse(JSON.stringify(geminiCodec.encodeAnswer(answer, IDENTITY))) as Record<
    string,
    unknown
  >;

  it('is a GenerateContentResponse with the parts as Gemini writes them', () => {
    expect(body).toEqual({
      candidates: [
        {
          content: {
            role: 'model',
            parts: [
              { text: 'Need the weather.', thought: true, thoughtSignature: 'c2ln' },
              { text: 'Checking.' },
              { functionCall: { id: 'call_9', name: 'get_weather', args: { city: 'Oslo' } } },
              { functionCall: { id: 'call_10', name: 'broken', args: {} } },
            ],
          },
          finishReason: 'STOP',
          index: 0,
        },
      ],
      usageMetadata: {
        promptTokenCount: 200,
        candidatesTokenCount: 60,
        totalTokenCount: 290,
        thoughtsTokenCount: 30,
      },
      modelVersion: 'gemini-2.5-pro',
      responseId: 'resp-1',
    });
  });

  it('reports cached tokens only when there are some', () => {
    const cached = geminiCodec.encodeAnswer(
      { ...answer, usage: { promptTokens: 200, completionTokens: 10, cachedTokens: 150 } },
      IDENTITY,
    );
    expect(JSON.parse(JSON.stringify(cached.usageMetadata))).toEqual({
      promptTokenCount: 200,
      candidatesTokenCount: 10,
      totalTokenCount: 210,
      cachedContentTokenCount: 150,
    });
  });

  it('tells length and content filter the way Gemini does', () => {
    const finish = (finishReason: ChatAnswer['finishReason']) =>
      (
        geminiCodec.encodeAnswer({ ...answer, finishReason }, IDENTITY).candidates as {
          finishReason: string;
        }[]
      )[0]?.finishReason;
    expect(finish('length')).toBe('MAX_TOKENS');
    expect(finish('content_filter')).toBe('SAFETY');
    expect(finish('stop')).toBe('STOP');
  });

  it('survives a trip through the Gemini format and back', () => {
    const again = geminiCodec.decodeAnswer(body);
    expect(again.parts.filter((p) => p.type !== 'reasoning' || p.text !== '')).toEqual([
      { type: 'reasoning', text: 'Need the weather.', signature: 'c2ln' },
      { type: 'text', text: 'Checking.' },
      { type: 'tool_call', id: 'call_9', name: 'get_weather', arguments: '{"city":"Oslo"}' },
      { type: 'tool_call', id: 'call_10', name: 'broken', arguments: '{}' },
    ]);
    expect(again.finishReason).toBe('tool_calls');
    expect(again.usage).toEqual(answer.usage);
  });
});

describe('errors in Google’s shape', () => {
  it('names the canonical status for each HTTP status', () => {
    const body = (status: number) => geminiErrorBody(new RelayError(status, 'nope').toIr());
    expect(body(400)).toEqual({ error: { code: 400, message: 'nope', status: 'INVALID_ARGUMENT' } });
    expect(body(401).error.status).toBe('UNAUTHENTICATED');
    expect(body(403).error.status).toBe('PERMISSION_DENIED');
    expect(body(404).error.status).toBe('NOT_FOUND');
    expect(body(429).error.status).toBe('RESOURCE_EXHAUSTED');
    expect(body(500).error.status).toBe('INTERNAL');
    expect(body(503).error.status).toBe('UNAVAILABLE');
    expect(body(504).error.status).toBe('DEADLINE_EXCEEDED');
    expect(body(413).error.status).toBe('INVALID_ARGUMENT');
  });

  it('reads the same shape as Google’s recorded 429', () => {
    const recorded = fixture('error-429.json') as ReturnType<typeof geminiErrorBody>;
    const ours = geminiErrorBody(new RelayError(429, recorded.error.message).toIr());
    expect(ours).toEqual(recorded);
  });
});
