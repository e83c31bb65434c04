import { describe, expect, it } from 'vitest';
import cl100kTable from 'gpt-tokenizer/bpeRanks/cl100k_base';
import o200kTable from 'gpt-tokenizer/bpeRanks/o200k_base';
import { loadBpeRanks, parseTiktoken } from './bpe-ranks.js';

describe('tokenizer vocabulary from the .tiktoken file', () => {
  // Any difference from gpt-tokenizer's own tables would change the token counts callers are billed by.
  it.each([
    ['o200k_base', o200kTable],
    ['cl100k_base', cl100kTable],
  ] as const)('is the table gpt-tokenizer builds %s from', async (name, table) => {
    const ranks = await loadBpeRanks(name);
    expect(ranks.length).toBe(table.length);
    expect(ranks).toEqual(table);
  });

  it('keeps bytes that are not UTF-8, or start with a BOM, as bytes and text as text', () => {
    const line = (bytes: number[], rank: number) => `${Buffer.from(bytes).toString('base64')} ${rank}`;
    const text = [line([0x68, 0x69], 0), line([0xff, 0x41], 1), line([0xef, 0xbb, 0xbf, 0x41], 2)].join('\n');
    expect(parseTiktoken(`${text}\n`)).toEqual(['hi', [0xff, 0x41], [0xef, 0xbb, 0xbf, 0x41]]);
  });
});
