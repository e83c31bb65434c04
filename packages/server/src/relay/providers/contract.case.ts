// The contract every provider adapter passes, with that vendor's recorded fixtures. A vendor's test
// file calls runProviderContract; a case it cannot pass is skipped with the reason written beside it.
import { describe, expect, it } from 'vitest';
import type { IrRequest, UpstreamRequest } from '../ir/request.js';
import type { IrUsage } from '../ir/usage.js';
import { rawOf } from '../sse.js';
import type { ChannelTarget, ProviderAdapter } from './types.js';

export type ContractCase = 'request' | 'response' | 'malformed' | 'error' | 'stream' | 'stream-split';

export interface ContractFixtures {
  adapter: ProviderAdapter;
  channel: ChannelTarget;
  /** The URL a chat call on `channel` goes to. */
  chatUrl: string;
  /**
   * What a built chat call asks for, for vendors that do not put it in an OpenAI body (Gemini names
   * the model and streaming in the URL). Default: the OpenAI body's model, stream and messages.
   */
  readRequest?: (request: UpstreamRequest) => { model: string; stream: boolean; messages: number };
  /** A recorded non-stream chat answer and what it means. */
  response: { body: Buffer; usage: IrUsage; text: string };
  /**
   * A recorded chat stream and what it means; `usage` is the last usage it reports. `endMarker: false`
   * for a dialect whose streams just stop after the finishing event (Gemini).
   */
  stream: { body: Buffer; usage: IrUsage; text: string; endMarker?: boolean };
  /** A recorded error answer. */
  error: { status: number; body: Buffer; message: RegExp; code: string | null };
  skip?: Partial<Record<ContractCase, string>>;
}

const chatIr = (stream: boolean): IrRequest => {
  const body = { model: 'client-model', stream, messages: [{ role: 'user', content: 'hi' }] };
  return {
    mode: 'chat',
    model: 'client-model',
    stream,
    clientWantsUsage: false,
    body,
    raw: Buffer.from(JSON.stringify(body)),
  };
};

/** An OpenAI chat body's model, stream flag and message count. */
function readOpenAiRequest(request: UpstreamRequest) {
  const body = JSON.parse(request.body.toString()) as { model: string; stream: boolean; messages: unknown[] };
  return { model: body.model, stream: body.stream, messages: body.messages.length };
}

export function runProviderContract(name: string, f: ContractFixtures): void {
  const test = (c: ContractCase, title: string, fn: () => void) =>
    f.skip?.[c] ? it.skip(`${title} (skipped: ${f.skip[c]})`, fn) : it(title, fn);

  describe(`provider contract: ${name}`, () => {
    test('request', 'builds the upstream call with the mapped model and asks streams for usage', () => {
      const req = f.adapter.buildRequest(chatIr(true), f.channel, 'upstream-model');
      expect(req.url).toBe(f.chatUrl);
      expect(req.method).toBe('POST');
      expect((f.readRequest ?? readOpenAiRequest)(req)).toEqual({
        model: 'upstream-model',
        stream: true,
        messages: 1,
      });
    });

    test('response', 'reads usage and text from a recorded answer', () => {
      const parsed = f.adapter.parseResponse(chatIr(false), f.response.body);
      expect(parsed.usage).toEqual(f.response.usage);
      expect(parsed.text).toBe(f.response.text);
    });

    test('malformed', 'refuses an answer that is not valid JSON', () => {
      expect(() => f.adapter.parseResponse(chatIr(false), f.response.body.subarray(0, 40))).toThrow();
    });

    test('error', 'reads the message and code of a recorded error', () => {
      const info = f.adapter.parseError(f.error.status, f.error.body);
      expect(info.message).toMatch(f.error.message);
      expect(info.code).toBe(f.error.code);
      const html = f.adapter.parseError(502, Buffer.from('<html>Bad Gateway</html>'));
      expect(html.message).toContain('502');
    });

    test('stream', 'reads text, usage and the end of a recorded stream', () => {
      const parser = f.adapter.createStreamParser(chatIr(true));
      const events = [...parser.push(f.stream.body), ...parser.end()];
      expect(events.map((e) => e.text).join('')).toBe(f.stream.text);
      expect(events.filter((e) => e.usage).at(-1)?.usage).toEqual(f.stream.usage);
      expect(events.some((e) => e.finished)).toBe(true);
      if (f.stream.endMarker === false) {
        expect(events.some((e) => e.done)).toBe(false);
        expect(events.at(-1)?.finished).toBe(true);
      } else {
        expect(events.at(-1)?.done).toBe(true);
      }
      expect(events.every((e) => e.error === undefined)).toBe(true);
    });

    test('stream-split', 'gives the same events however the bytes are split', () => {
      const whole = f.adapter.createStreamParser(chatIr(true));
      const expected = [...whole.push(f.stream.body), ...whole.end()].map((e) => rawOf(e).toString());
      for (const size of [1, 7, 64]) {
        const parser = f.adapter.createStreamParser(chatIr(true));
        const events = [];
        for (let i = 0; i < f.stream.body.length; i += size)
          events.push(...parser.push(f.stream.body.subarray(i, i + size)));
        events.push(...parser.end());
        expect(events.map((e) => rawOf(e).toString())).toEqual(expected);
      }
    });
  });
}
