// Calls of the wallet: the balance, redeeming a code, the price of a top-up and the payment order.
import { useQuery } from '@tanstack/react-query';
import type { PayFormFields, PublicUser, TopupPayInput } from '@sluice/shared';
import { ApiError, api } from '../../lib/api';
import { getUser } from '../../lib/session';

export type PaymentMethod = TopupPayInput['payment_method'];

/** Same cache entry as the personal settings' profile, so both show the same balance. */
export const selfQueryKey = ['user', 'self'] as const;

export const useSelf = () =>
  useQuery({ queryKey: selfQueryKey, queryFn: () => api.get<PublicUser>('/api/user/self') });

/** Answers the quota gained. The wallet shows failures itself ("request failed" when unreachable). */
export const redeemCode = (key: string) => api.post<number>('/api/user/topup', { key }, { silent: true });

export const quoteQueryKey = (amount: number) => ['topup', 'quote', amount] as const;

/** The money to pay for `amount`, e.g. "7.30". Failures are shown beside the amount, not toasted. */
export const fetchQuote = (amount: number) =>
  api.post<string>('/api/user/amount', { amount, top_up_code: '' }, { silent: true });

export interface PaymentOrder {
  url: string;
  fields: PayFormFields;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * POST /api/user/pay. Its answer carries the gateway's `url` beside `data`, which lib/api.ts does
 * not pass on (it returns only message and data), so this one call reads the envelope itself, with
 * the same user header. Failures are ApiErrors carrying the server's sentence (status 0: no answer).
 */
export async function createPaymentOrder(amount: number, method: PaymentMethod): Promise<PaymentOrder> {
  const user = getUser();
  let response: Response;
  try {
    response = await fetch('/api/user/pay', {
      method: 'POST',
      credentials: 'same-origin',
      headers: {
        Accept: 'application/json',
        'Content-Type': 'application/json',
        ...(user ? { 'New-Api-User': String(user.id) } : {}),
      },
      body: JSON.stringify({ amount, top_up_code: '', payment_method: method }),
    });
  } catch (cause) {
    throw new ApiError(0, cause instanceof Error ? cause.message : String(cause));
  }
  const body: unknown = await response.json().catch(() => null);
  const message = isRecord(body) && typeof body.message === 'string' ? body.message : '';
  if (!response.ok || !isRecord(body) || body.success !== true) {
    throw new ApiError(response.status, message || response.statusText || `HTTP ${response.status}`);
  }
  if (typeof body.url !== 'string' || !isRecord(body.data)) {
    throw new ApiError(response.status, 'the payment answer has no gateway address');
  }
  return { url: body.url, fields: body.data as PayFormFields };
}

/**
 * Sends the browser to the gateway: the signed fields as a hidden form POSTed to its url. The same
 * window, not a new one: the order is placed after an await, where popup blockers often stop a new
 * window, and the gateway's return_url brings the user back to the console (/log).
 */
export function submitPaymentForm(order: PaymentOrder, doc: Document = document): void {
  const form = doc.createElement('form');
  form.method = 'POST';
  form.action = order.url;
  form.style.display = 'none';
  for (const [name, value] of Object.entries(order.fields)) {
    const input = doc.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = String(value);
    form.appendChild(input);
  }
  doc.body.appendChild(form);
  form.submit();
  form.remove();
}
