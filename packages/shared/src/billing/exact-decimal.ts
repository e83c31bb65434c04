// Exact decimal arithmetic on BigInt, so a price table entry like 0.075 is multiplied as the
// decimal the operator typed, never as its binary floating-point approximation.

/** value = units / 10^scale */
export interface Decimal {
  readonly units: bigint;
  readonly scale: number;
}

const TEN = 10n;
/** The powers of ten that prices and their products need, computed once. */
const POWERS = Array.from({ length: 64 }, (_, n) => TEN ** BigInt(n));
const pow10 = (n: number): bigint => POWERS[n] ?? TEN ** BigInt(n);

// The decimals of numbers already seen: every call prices with the same few ratios.
const NUMBER_DECIMALS = 512;
/** Keyed by number: 0 and -0 share a key and print alike ("0"). */
const numberDecimals = new Map<number, Decimal>();

/**
 * The decimal a number prints as (its shortest round-trip form: 0.1 → "0.1", 4/3 →
 * "1.3333333333333333"), or the decimal a string spells. Exponent forms like 1e-7 are accepted.
 */
export function toDecimal(value: number | string): Decimal {
  if (typeof value === 'string') return parseDecimal(value.trim());
  let decimal = numberDecimals.get(value);
  if (decimal === undefined) {
    // Frozen, as it is shared by every caller; all are forgotten at once when too many came by.
    decimal = Object.freeze(parseDecimal(String(value)));
    if (numberDecimals.size >= NUMBER_DECIMALS) numberDecimals.clear();
    numberDecimals.set(value, decimal);
  }
  return decimal;
}

function parseDecimal(text: string): Decimal {
  const match = /^([+-]?)(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/i.exec(text);
  if (!match || (match[2] === '' && (match[3] ?? '') === '')) {
    throw new Error(`not a finite decimal number: ${text}`);
  }
  const [, sign = '', whole = '', fraction = '', exponent = '0'] = match;
  let units = BigInt(`${whole}${fraction}` || '0');
  let scale = fraction.length - Number(exponent);
  if (scale < 0) {
    units *= pow10(-scale);
    scale = 0;
  }
  return { units: sign === '-' ? -units : units, scale };
}

export const decimalFromInt = (n: number | bigint): Decimal => ({ units: BigInt(n), scale: 0 });

function align(a: Decimal, b: Decimal): [bigint, bigint, number] {
  if (a.scale === b.scale) return [a.units, b.units, a.scale];
  if (a.scale > b.scale) return [a.units, b.units * pow10(a.scale - b.scale), a.scale];
  return [a.units * pow10(b.scale - a.scale), b.units, b.scale];
}

export function addDecimal(a: Decimal, b: Decimal): Decimal {
  const [x, y, scale] = align(a, b);
  return { units: x + y, scale };
}

export function subDecimal(a: Decimal, b: Decimal): Decimal {
  const [x, y, scale] = align(a, b);
  return { units: x - y, scale };
}

export const mulDecimal = (a: Decimal, b: Decimal): Decimal => ({
  units: a.units * b.units,
  scale: a.scale + b.scale,
});

export const isZeroDecimal = (a: Decimal): boolean => a.units === 0n;

/** Rounds to the nearest integer, halves away from zero (as Go's math.Round, which one-api uses). */
export function roundDecimal(a: Decimal): number {
  if (a.scale === 0) return Number(a.units);
  const divisor = pow10(a.scale);
  const negative = a.units < 0n;
  const magnitude = negative ? -a.units : a.units;
  let quotient = magnitude / divisor;
  if ((magnitude % divisor) * 2n >= divisor) quotient += 1n;
  return Number(negative ? -quotient : quotient);
}
