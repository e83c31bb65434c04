import { describe, expect, it } from 'vitest';
import { parseGeminiModelSuffix } from './index.js';

describe('thinking switches in a Gemini model name', () => {
  it('turns thinking on with a dynamic budget and the thoughts shown', () => {
    expect(parseGeminiModelSuffix('gemini-2.5-flash-thinking')).toEqual({
      model: 'gemini-2.5-flash',
      reasoning: { includeThoughts: true },
    });
  });

  it('sets the budget a name asks for', () => {
    expect(parseGeminiModelSuffix('gemini-2.5-pro-thinking-8192')).toEqual({
      model: 'gemini-2.5-pro',
      reasoning: { budgetTokens: 8192, includeThoughts: true },
    });
  });

  it('turns thinking off', () => {
    expect(parseGeminiModelSuffix('gemini-2.5-flash-nothinking')).toEqual({
      model: 'gemini-2.5-flash',
      reasoning: { budgetTokens: 0 },
    });
  });

  it('leaves names without a suffix at their end alone, real thinking models included', () => {
    for (const model of [
      'gemini-2.5-flash',
      'gemini-2.0-flash-thinking-exp-01-21',
      'gemini-2.5-pro-thinking-',
      'gemini-2.5-pro-thinking-99999999',
      '-thinking',
    ]) {
      expect(parseGeminiModelSuffix(model)).toEqual({ model });
    }
  });

  it('sends the decoded thinking config upstream as Gemini spells it', async () => {
    const { geminiCodec } = await import('./index.js');
    const { reasoning } = parseGeminiModelSuffix('gemini-2.5-flash-thinking');
    const body = geminiCodec.encodeRequest(
      {
        model: 'gemini-2.5-flash',
        stream: false,
        system: [],
        messages: [{ role: 'user', parts: [{ type: 'text', text: 'hi' }] }],
        tools: [],
        stop: [],
        reasoning,
      },
      { model: 'gemini-2.5-flash', streamUsage: false },
    );
    expect((body.generationConfig as Record<string, unknown>).thinkingConfig).toEqual({
      thinkingBudget: -1,
      includeThoughts: true,
    });
  });
});
