// The tokenizer's vocabulary read from the .tiktoken file gpt-tokenizer ships (one base64 token and its
// rank per line) rather than from its JavaScript copy of the same table. Importing that 2.4 MB module of
// array literals made V8's parser take ~48 MB of native memory that glibc kept after the parse, and V8
// kept the module's source text (4 MB) for as long as the process ran: measured on the built server, o200k
// loaded this way leaves RSS 10 to 14 MiB lower with the same table in the heap.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';

export type EncodingName = 'o200k_base' | 'cl100k_base';
/** Rank → token: its text when the bytes are UTF-8 that decodes and encodes back as they are, else the bytes. */
export type BpeRanks = (string | number[])[];

const require = createRequire(import.meta.url);
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** A token's bytes as gpt-tokenizer's own tables hold them (a leading BOM stays bytes, as there). */
function tokenOf(bytes: Buffer): string | number[] {
  try {
    const text = utf8.decode(bytes);
    if (Buffer.byteLength(text) === bytes.length) return text;
  } catch {
    // not UTF-8: kept as bytes
  }
  return Array.from(bytes);
}

/** Parses a .tiktoken file: lines of `<base64 token> <rank>`. */
export function parseTiktoken(text: string): BpeRanks {
  const ranks: BpeRanks = [];
  for (let start = 0; start < text.length;) {
    const newline = text.indexOf('\n', start);
    const end = newline < 0 ? text.length : newline;
    const space = text.indexOf(' ', start);
    if (space > start && space < end) {
      ranks[Number(text.slice(space + 1, end))] = tokenOf(Buffer.from(text.slice(start, space), 'base64'));
    }
    start = end + 1;
  }
  return ranks;
}

export async function loadBpeRanks(name: EncodingName): Promise<BpeRanks> {
  const file = require.resolve(`gpt-tokenizer/data/${name}.tiktoken`);
  return parseTiktoken(await readFile(file, 'latin1'));
}
