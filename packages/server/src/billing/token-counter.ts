// Counting tokens ourselves, only when an upstream reports no usage (or a stream ends before its usage
// event). The tokenizer loads on first need; generated text is counted in pieces as it arrives, so a
// long stream never keeps its whole text in memory.
import type { EncodingName } from './bpe-ranks.js';
import { loadBpeRanks } from './bpe-ranks.js';

type Counter = (text: string) => number;

const loaded = new Map<EncodingName, Promise<Counter>>();

async function encoding(name: EncodingName): Promise<Counter> {
  const [{ GptEncoding }, ranks] = await Promise.all([
    import('gpt-tokenizer/GptEncoding'),
    loadBpeRanks(name),
  ]);
  return GptEncoding.getEncodingApi(name, () => ranks).countTokens;
}

function load(name: EncodingName): Promise<Counter> {
  let counter = loaded.get(name);
  if (!counter) {
    counter = encoding(name);
    loaded.set(name, counter);
  }
  return counter;
}

/** GPT-3.5/GPT-4 use cl100k; the newer families (and the rest, as an estimate) o200k. */
export const encodingFor = (model: string): EncodingName =>
  /^(gpt-3\.5|gpt-4(?!o|\.\d)|text-embedding)/.test(model) ? 'cl100k_base' : 'o200k_base';

/** The model's tokenizer as a plain function, for counting many small pieces once it is loaded. */
export const tokenCounterFor = (model: string): Promise<(text: string) => number> => load(encodingFor(model));

export async function countTokens(text: string, model: string): Promise<number> {
  if (text === '') return 0;
  return (await load(encodingFor(model)))(text);
}

/** Text is tokenized in pieces of about this many characters. */
const PIECE = 16 * 1024;

/** Counts the tokens of a stream's generated text incrementally. */
export class CompletionCounter {
  private pending = '';
  private counted = 0;
  private work: Promise<void> = Promise.resolve();

  constructor(private readonly model: string) {}

  add(text: string): void {
    if (text === '') return;
    this.pending += text;
    if (this.pending.length < PIECE) return;
    // Cut at the last space so a word is not split into two token runs.
    const cut = this.pending.lastIndexOf(' ');
    const at = cut > PIECE / 2 ? cut : this.pending.length;
    const piece = this.pending.slice(0, at);
    this.pending = this.pending.slice(at);
    this.work = this.work.then(async () => {
      this.counted += await countTokens(piece, this.model);
    });
  }

  async total(): Promise<number> {
    await this.work;
    const rest = this.pending;
    this.pending = '';
    this.counted += await countTokens(rest, this.model);
    return this.counted;
  }
}
