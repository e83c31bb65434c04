// Online top-up through an Epay-style gateway: price quote, payment order, gateway callback.
// `amount` counts units of the console's display: US dollars when DisplayInCurrencyEnabled is on
// (quota credited = amount × QuotaPerUnit), raw quota otherwise (rounded down to whole dollars).
import { z } from 'zod';
import { MSG } from '../messages.js';

const amount = z
  .number({ error: MSG.topupAmountInvalid })
  .int({ error: MSG.topupAmountInvalid })
  .min(1, { error: MSG.topupAmountInvalid });

/** POST /api/user/amount → data: the price to pay, a string with 2 decimals. */
export const topupAmountSchema = z.object({
  amount,
  /** Accepted for compatibility; not used. */
  top_up_code: z.string().optional(),
});

export const PAYMENT_METHODS = ['zfb', 'wx'] as const;
/** The gateway's names for the console's payment methods. */
export const EPAY_TYPE: Record<(typeof PAYMENT_METHODS)[number], string> = { zfb: 'alipay', wx: 'wxpay' };

/** POST /api/user/pay → {success, message: 'success', data: PayFormFields, url}. */
export const topupPaySchema = z.object({
  amount,
  top_up_code: z.string().optional(),
  payment_method: z.enum(PAYMENT_METHODS, { error: MSG.paymentMethodInvalid }),
});
export type TopupPayInput = z.output<typeof topupPaySchema>;

/**
 * Hidden fields the console posts as a form to `url` (the gateway's submit.php). A type alias, not
 * an interface, so it stays assignable to Record<string, string>.
 */
export type PayFormFields = {
  pid: string;
  type: string;
  out_trade_no: string;
  notify_url: string;
  return_url: string;
  name: string;
  money: string;
  sign: string;
  sign_type: 'MD5';
};

export interface PayAnswer {
  success: true;
  message: 'success';
  data: PayFormFields;
  url: string;
}
