// The per-call price of an image request: ModelPrice for one standard image, times the number of
// images, times what size and quality add. Only dall-e-3 has size/quality steps, as OpenAI prices it
// (standard 1024×1024 $0.04, 1792 sizes $0.08, hd $0.08 / $0.12): a 1792 size doubles the price, hd
// doubles a 1024×1024 image and adds half to a 1792 one. Other models: one price per image.
import { decimalFromInt, mulDecimal, toDecimal } from '@sluice/shared';
import type { Decimal } from '@sluice/shared';

export interface ImageOrder {
  model: string;
  n: number;
  size?: string | null | undefined;
  quality?: string | null | undefined;
}

const WIDE_SIZES = new Set(['1024x1792', '1792x1024']);

/** How many standard images this order is worth (a decimal: hd 1792 is 3). */
export function imageUnits(order: ImageOrder): Decimal {
  let units = decimalFromInt(order.n);
  if (order.model === 'dall-e-3') {
    const wide = order.size !== undefined && order.size !== null && WIDE_SIZES.has(order.size);
    if (wide) units = mulDecimal(units, decimalFromInt(2));
    if (order.quality === 'hd') units = mulDecimal(units, toDecimal(wide ? '1.5' : '2'));
  }
  return units;
}

/** The decimal as the number it spells; exact for every price a table can hold (≤ 15 digits). */
export function decimalToNumber(d: Decimal): number {
  const negative = d.units < 0n;
  const digits = (negative ? -d.units : d.units).toString().padStart(d.scale + 1, '0');
  const whole = digits.slice(0, digits.length - d.scale);
  const fraction = digits.slice(digits.length - d.scale);
  return Number(`${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`);
}

/** ModelPrice (dollars per standard image) × units, in exact decimal arithmetic. */
export const orderPrice = (modelPrice: number, order: ImageOrder): number =>
  decimalToNumber(mulDecimal(toDecimal(modelPrice), imageUnits(order)));
