// How a consumption log row's quota came about (the "billing process" of an expanded log row): the
// ratios the relay recorded, the prices they mean, and the formula as one line of text. Display
// only: the server did the charging in exact arithmetic; floating point is fine for showing it.
import { LOG_TYPE, pricePerMillion } from '@sluice/shared';
import type { LogItem } from '@sluice/shared';
import type { TFunction } from 'i18next';
import type { LogOther } from './log-other';

interface Outcome {
  /** The formula's value before rounding. */
  raw: number;
  /** What the row was charged. */
  quota: number;
  /** `quota` in US dollars, e.g. "0.000028". */
  usd: string;
}

export interface TokenBilling extends Outcome {
  kind: 'tokens';
  modelRatio: number;
  completionRatio: number;
  groupRatio: number;
  /** Prompt tokens billed at the full price (the prompt minus cached and cache-write tokens). */
  uncachedTokens: number;
  cachedTokens: number;
  cacheRatio: number;
  cacheWriteTokens: number;
  cacheWriteRatio: number;
  completionTokens: number;
  /** US dollars per 1M tokens: ratio × 2 × group ratio; completion and cache by their ratios. */
  prices: { prompt: number; completion: number; cached: number | null; cacheWrite: number | null };
}

export interface CallBilling extends Outcome {
  kind: 'call';
  /** US dollars per call. */
  modelPrice: number;
  groupRatio: number;
  quotaPerUnit: number;
}

export type BillingProcess = TokenBilling | CallBilling;

/** A figure without floating-point noise: 13.499999999999998 → "13.5". */
export const formatFigure = (n: number): string => String(Number(n.toPrecision(12)));

/** Quota in dollars with up to six decimals (one quota is $0.000002 at the usual rate). */
export function quotaToUsd(quota: number, quotaPerUnit: number): string {
  if (quotaPerUnit <= 0) return '0';
  return String(Number((quota / quotaPerUnit).toFixed(6)));
}

/** The billing of a consumption row, or null when the row carries no prices (other types, old rows). */
export function billingProcess(
  log: Pick<LogItem, 'type' | 'quota' | 'prompt_tokens' | 'completion_tokens'>,
  other: LogOther,
  quotaPerUnit: number,
): BillingProcess | null {
  if (log.type !== LOG_TYPE.consume) return null;
  const groupRatio = other.group_ratio ?? 1;
  const usd = quotaToUsd(log.quota, quotaPerUnit);
  if (other.model_price !== undefined && other.model_price > 0) {
    return {
      kind: 'call',
      modelPrice: other.model_price,
      groupRatio,
      quotaPerUnit,
      raw: other.model_price * quotaPerUnit * groupRatio,
      quota: log.quota,
      usd,
    };
  }
  if (other.model_ratio === undefined) return null;

  const modelRatio = other.model_ratio;
  const completionRatio = other.completion_ratio ?? 1;
  const cacheRatio = other.cache_ratio ?? 1;
  const cacheWriteRatio = other.cache_creation_ratio ?? 1;
  // Prompt tokens include cached and cache-write tokens (the relay normalises usage that way).
  const cachedTokens = Math.min(Math.max(other.cache_tokens ?? 0, 0), log.prompt_tokens);
  const cacheWriteTokens = Math.min(
    Math.max(other.cache_creation_tokens ?? 0, 0),
    log.prompt_tokens - cachedTokens,
  );
  const uncachedTokens = log.prompt_tokens - cachedTokens - cacheWriteTokens;
  const weighted =
    uncachedTokens +
    cachedTokens * cacheRatio +
    cacheWriteTokens * cacheWriteRatio +
    log.completion_tokens * completionRatio;
  const perMillion = pricePerMillion(modelRatio, completionRatio, groupRatio);
  return {
    kind: 'tokens',
    modelRatio,
    completionRatio,
    groupRatio,
    uncachedTokens,
    cachedTokens,
    cacheRatio,
    cacheWriteTokens,
    cacheWriteRatio,
    completionTokens: log.completion_tokens,
    prices: {
      prompt: perMillion.prompt,
      completion: perMillion.completion,
      cached: cachedTokens > 0 ? perMillion.prompt * cacheRatio : null,
      cacheWrite: cacheWriteTokens > 0 ? perMillion.prompt * cacheWriteRatio : null,
    },
    raw: weighted * modelRatio * groupRatio,
    quota: log.quota,
    usd,
  };
}

/**
 * The formula as one line, e.g. "(prompt 100 + completion 20 × 4) × 0.075 × 1 = 13.5 → 14 quota =
 * $0.000028", or for a per-call price "$0.04 × 1 × 500000 = 20000 quota = $0.04".
 */
export function billingFormula(process: BillingProcess, t: TFunction): string {
  const raw = formatFigure(process.raw);
  const result =
    raw === String(process.quota)
      ? t('logs.formula.result', { quota: process.quota, usd: process.usd })
      : t('logs.formula.rounded', { raw, quota: process.quota, usd: process.usd });
  if (process.kind === 'call') {
    return t('logs.formula.call', {
      price: formatFigure(process.modelPrice),
      groupRatio: formatFigure(process.groupRatio),
      quotaPerUnit: process.quotaPerUnit,
      result,
    });
  }
  const terms = [t('logs.formula.prompt', { n: process.uncachedTokens })];
  if (process.cachedTokens > 0) {
    terms.push(
      t('logs.formula.cached', { n: process.cachedTokens, ratio: formatFigure(process.cacheRatio) }),
    );
  }
  if (process.cacheWriteTokens > 0) {
    terms.push(
      t('logs.formula.cacheWrite', {
        n: process.cacheWriteTokens,
        ratio: formatFigure(process.cacheWriteRatio),
      }),
    );
  }
  terms.push(
    t('logs.formula.completion', {
      n: process.completionTokens,
      ratio: formatFigure(process.completionRatio),
    }),
  );
  return t('logs.formula.tokens', {
    terms: terms.join(' + '),
    modelRatio: formatFigure(process.modelRatio),
    groupRatio: formatFigure(process.groupRatio),
    result,
  });
}
