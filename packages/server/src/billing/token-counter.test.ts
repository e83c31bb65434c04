import { describe, expect, it } from 'vitest';
import { countTokens as o200k } from 'gpt-tokenizer/encoding/o200k_base';
import { countTokens as cl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { CompletionCounter, countTokens, encodingFor } from './token-counter.js';

describe('token counting', () => {
  it('uses cl100k for GPT-3.5/GPT-4 and o200k for newer and other models', () => {
    expect(encodingFor('gpt-3.5-turbo')).toBe('cl100k_base');
    expect(encodingFor('gpt-4-0613')).toBe('cl100k_base');
    expect(encodingFor('gpt-4o-mini')).toBe('o200k_base');
    expect(encodingFor('gpt-4.1')).toBe('o200k_base');
    expect(encodingFor('deepseek-chat')).toBe('o200k_base');
  });

  it('counts a text with the encoding of the model', async () => {
    const text = 'Tokenizers split words into pieces.';
    expect(await countTokens(text, 'gpt-4')).toBe(cl100k(text));
    expect(await countTokens(text, 'gpt-4o')).toBe(o200k(text));
    expect(await countTokens('', 'gpt-4o')).toBe(0);
  });

  it('counts a long stream in pieces to within a token per piece of the whole count', async () => {
    const words = Array.from({ length: 20_000 }, (_, i) => `word${i % 97}`);
    const counter = new CompletionCounter('gpt-4o');
    for (const word of words) counter.add(`${word} `);
    const total = await counter.total();
    const whole = o200k(words.join(' ') + ' ');
    const pieces = Math.ceil((words.join(' ').length + 1) / (16 * 1024));
    expect(Math.abs(total - whole)).toBeLessThanOrEqual(pieces);
  });
});
