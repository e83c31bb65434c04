// The spend check of a stream, past its cheap bound: a caller who can afford the bound keeps the cheap
// check (the hold grows to it, whole); one who cannot is counted exactly and cut where the balance ends.
import { describe, expect, it } from 'vitest';
import type { TokenPricing } from '@sluice/shared';
import type { Hold } from '../../billing/ledger.js';
import { CompletionCounter } from '../../billing/token-counter.js';
import { OutputGuard } from './output-guard.js';

const pricing: TokenPricing = {
  billing: 'tokens',
  modelRatio: 1,
  completionRatio: 1,
  groupRatio: 1,
  cacheRatio: 1,
  cacheWriteRatio: 1,
};

/** A counter that says so when the guard turns to exact counting. */
class WatchedCounter extends CompletionCounter {
  asked = 0;
  override async total(): Promise<number> {
    this.asked++;
    return super.total();
  }
}

function guardWith(balance: number) {
  // 10 prompt tokens and 20 output tokens held: quota 30 at ratio 1.
  const hold: Hold = { userId: 1, tokenId: null, amount: 30 };
  let left = balance;
  const asks: Array<{ extra: number; whole: boolean | undefined }> = [];
  const counter = new WatchedCounter('gpt-4o-mini');
  const guard = new OutputGuard({
    model: 'gpt-4o-mini',
    pricing,
    promptEstimate: 10,
    hold,
    counter,
    extend: async (held, extra, whole) => {
      asks.push({ extra, whole });
      const added = whole && left < extra ? 0 : Math.min(extra, left);
      left -= added;
      held.amount += added;
      return added;
    },
  });
  /** Sends `text` through the guard as the stream path does; false: the stream was ended before it. */
  const send = async (text: string) => {
    const ok = guard.fits(text) || (await guard.admit(text));
    if (ok) counter.add(text);
    return ok;
  };
  return { hold, guard, counter, asks, send };
}

const word = ' river'; // 6 bytes, 1 token (o200k), and one more token per repeat

describe('the spend check past its cheap bound', () => {
  it('grows the hold to the byte bound, whole, for a caller who can afford it, and never counts exactly', async () => {
    const { hold, counter, asks, send } = guardWith(1_000_000);
    for (let i = 0; i < 3; i++) expect(await send(word)).toBe(true);
    // 18 bytes ≤ 20 held: nothing asked yet.
    expect(asks).toEqual([]);
    expect(await send(word)).toBe(true);
    // 24 bytes: the hold grows to 24 + 256 output tokens, in one whole step.
    expect(asks).toEqual([{ extra: 10 + 24 + 256 - 30, whole: true }]);
    expect(hold.amount).toBe(10 + 24 + 256);
    for (let i = 0; i < 40; i++) expect(await send(word)).toBe(true);
    expect(asks).toHaveLength(1);
    // 264 bytes, within the 280 the hold now pays for; at 282 it grows again, to 282 + 256.
    for (let i = 0; i < 3; i++) expect(await send(word)).toBe(true);
    expect(asks).toEqual([
      { extra: 10 + 24 + 256 - 30, whole: true },
      { extra: 10 + 282 + 256 - (10 + 24 + 256), whole: true },
    ]);
    expect(hold.amount).toBe(10 + 282 + 256);
    expect(counter.asked).toBe(0);
  });

  it('counts exactly, and stops where the balance ends, for a caller who cannot afford the bound', async () => {
    const { hold, counter, asks, send } = guardWith(8);
    let sent = 0;
    while (sent < 100 && (await send(word))) sent++;
    // The whole growth was refused; exact counting took the 8 left: 28 tokens of output in all.
    expect(asks[0]).toEqual({ extra: 10 + 24 + 256 - 30, whole: true });
    expect(counter.asked).toBe(1);
    expect(hold.amount).toBe(38);
    expect(sent).toBe(28);
  });
});
