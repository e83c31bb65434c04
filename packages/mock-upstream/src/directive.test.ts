import { describe, expect, it } from 'vitest';
import {
  directiveFromBody,
  DirectiveError,
  mockMarker,
  parseDirective,
  stripMarkers,
  withMock,
} from './directive.js';
import { countTokens, expectedChatUsage, expectedEmbeddingUsage, words } from './usage.js';

describe('directive markers', () => {
  it('round-trips a directive through a marker and strips it from the text', () => {
    const text = withMock('Hello there', { status: 500, error: { message: 'a ]] b' } });
    expect(stripMarkers(text)).toEqual({
      text: 'Hello there ',
      directives: [{ status: 500, error: { message: 'a ]] b' } }],
    });
  });

  it('merges markers found anywhere in a body, later fields winning', () => {
    const body = {
      model: 'm',
      messages: [
        { role: 'system', content: mockMarker({ delay_ms: 5, status: 500 }) },
        { role: 'user', content: [{ type: 'text', text: `hi ${mockMarker({ status: 502 })}` }] },
      ],
    };
    expect(directiveFromBody(body)).toEqual({ delay_ms: 5, status: 502 });
  });

  it('refuses unknown fields, bad values and markers without valid JSON', () => {
    expect(() => parseDirective({ stauts: 500 })).toThrow(DirectiveError);
    expect(() => parseDirective({ status: 99 })).toThrow(/status/);
    expect(() => parseDirective({ tool_call: { arguments: '{}' } })).toThrow(/tool_call/);
    expect(() => stripMarkers('[[mock:{"status":]]')).toThrow(DirectiveError);
    expect(parseDirective({ error: { code: null } })).toEqual({ error: { code: null } });
  });
});

describe('the token rule', () => {
  it('counts whitespace-separated words, ignoring markers', () => {
    expect(countTokens('  one two\tthree\nfour ')).toBe(4);
    expect(countTokens('')).toBe(0);
    expect(words(withMock('a b', { status: 500 }))).toEqual(['a', 'b']);
  });

  it('counts one token per message plus its text parts for chat prompts', () => {
    const body = {
      messages: [
        { role: 'system', content: 'x y' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'one' },
            { type: 'image_url', image_url: { url: 'u' } },
          ],
        },
        { role: 'assistant', content: null },
      ],
    };
    expect(expectedChatUsage(body).prompt_tokens).toBe(3 + 2 + 1);
  });

  it('takes the server-level directive into account, overridden by the body', () => {
    const body = { messages: [{ role: 'user', content: withMock('hi', { reply: 'one two' }) }] };
    expect(expectedChatUsage(body, { reply: 'a b c d', cached_tokens: 9 })).toMatchObject({
      completion_tokens: 2,
      prompt_tokens_details: { cached_tokens: 2 },
    });
  });

  it('counts embedding inputs of every shape', () => {
    expect(expectedEmbeddingUsage({ input: 'a b' }).total_tokens).toBe(2);
    expect(expectedEmbeddingUsage({ input: ['a', 'b c'] }).total_tokens).toBe(3);
    expect(expectedEmbeddingUsage({ input: [1, 2, 3] }).total_tokens).toBe(3);
    expect(expectedEmbeddingUsage({ input: [[1, 2], [3]] }).total_tokens).toBe(3);
  });
});
