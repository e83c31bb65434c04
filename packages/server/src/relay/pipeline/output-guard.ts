// The spend check of a stream: the output a client is sent must stay paid for by the call's hold.
// The upstream was told an output limit the hold covers, but an upstream that ignores it must not
// take the caller past what they have. The check works in output tokens against the same prompt
// estimate the hold was sized with, so an upstream that keeps to its limit is never cut. While the
// text so far is surely inside the hold (its UTF-8 bytes bound its tokens: a token is at least one
// byte), an event costs one addition. Past that bound the hold first tries to grow to the bound (and
// GROWTH_TOKENS more), whole or not at all, from what the caller has left: a caller who can afford it
// keeps the cheap check, and the tokenizer is never loaded for them. Otherwise every event is counted
// exactly from then on; an event the hold does not cover grows the hold as far as the balance allows,
// and when that is not enough, the event is not sent and the stream ends there.
import type { TokenPricing } from '@sluice/shared';
import { tokenQuota } from '@sluice/shared';
import type { Hold } from '../../billing/ledger.js';
import type { CompletionCounter } from '../../billing/token-counter.js';
import { tokenCounterFor } from '../../billing/token-counter.js';
import { affordableOutputTokens } from '../../billing/pricing.js';

/** Output tokens beyond which a hold is never searched (well above any model's output). */
const SEARCH_LIMIT = 100_000_000;
/** A hold grows by this many output tokens more than the event needs, so it does not grow per event. */
const GROWTH_TOKENS = 256;

export interface OutputGuardInput {
  model: string;
  pricing: TokenPricing;
  promptEstimate: number;
  hold: Hold;
  /** Takes up to `extra` more quota for the hold (all of it or nothing when `whole`); returns what it took. */
  extend: (hold: Hold, extra: number, whole?: boolean) => Promise<number>;
  /** Counts what was delivered; the guard reads it when it turns exact. */
  counter: CompletionCounter;
  /**
   * Output tokens the hold is known to pay for (the output it was sized for), sparing a search over
   * the quota formula per stream; at most what the hold affords, so the check never lets more through.
   */
  heldOutput?: number;
}

export class OutputGuard {
  /** Upper bound of the output tokens delivered while the check is cheap. */
  private bound = 0;
  /** Output tokens the hold pays for. */
  private allowed: number;
  private exact?: { delivered: number; count: (text: string) => number };
  private stopped = false;

  constructor(private readonly input: OutputGuardInput) {
    this.allowed = input.heldOutput ?? this.affordable();
  }

  private affordable(): number {
    const { pricing, promptEstimate, hold } = this.input;
    return affordableOutputTokens(pricing, promptEstimate, hold.amount, SEARCH_LIMIT);
  }

  /** True while `text` is surely paid for; false means `admit` must decide. */
  fits(text: string): boolean {
    if (this.exact) return false;
    this.bound += Buffer.byteLength(text);
    return this.bound <= this.allowed;
  }

  /** Whether `text` may be sent; false ends the stream before it. */
  async admit(text: string): Promise<boolean> {
    if (this.stopped) return false;
    const { input } = this;
    if (!this.exact && this.bound > this.allowed && (await this.growTo(this.bound + GROWTH_TOKENS))) {
      return true;
    }
    if (!this.exact) {
      const [delivered, count] = await Promise.all([input.counter.total(), tokenCounterFor(input.model)]);
      this.exact = { delivered, count };
    }
    const next = this.exact.delivered + this.exact.count(text);
    if (next > this.allowed) {
      const wanted = tokenQuota(
        { promptTokens: input.promptEstimate, completionTokens: next + GROWTH_TOKENS },
        input.pricing,
      );
      await input.extend(input.hold, wanted - input.hold.amount);
      this.allowed = this.affordable();
      if (next > this.allowed) {
        this.stopped = true;
        return false;
      }
    }
    this.exact.delivered = next;
    return true;
  }

  /**
   * Grows the hold to pay for `tokens` (more than the bound) of output, whole or not at all; true when
   * it now does. A hold of at least the quota of `tokens` pays for `tokens` (the formula is monotone in
   * the output), so no search over the formula is needed (a search per growth cost about 8 µs, and a
   * stream whose text keeps passing its byte bound grows the hold every GROWTH_TOKENS bytes).
   */
  private async growTo(tokens: number): Promise<boolean> {
    const { input } = this;
    const wanted = tokenQuota(
      { promptTokens: input.promptEstimate, completionTokens: tokens },
      input.pricing,
    );
    if (wanted > input.hold.amount) await input.extend(input.hold, wanted - input.hold.amount, true);
    if (input.hold.amount < wanted) return false;
    this.allowed = tokens;
    return true;
  }

  /** Whether the guard ended the stream. */
  get ended(): boolean {
    return this.stopped;
  }
}
