// The Epay gateway protocol: MD5 signatures over the sorted non-empty parameters, and the form the
// browser posts to the gateway's submit.php.
import { createHash, timingSafeEqual } from 'node:crypto';

/** md5("a=1&b=2" + key) over every non-empty parameter except sign and sign_type, keys sorted. */
export function epaySign(params: Readonly<Record<string, string>>, key: string): string {
  const text = Object.keys(params)
    .filter((k) => k !== 'sign' && k !== 'sign_type' && params[k] !== '')
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join('&');
  return createHash('md5')
    .update(text + key, 'utf8')
    .digest('hex');
}

export function epayVerify(params: Readonly<Record<string, string>>, key: string): boolean {
  const given = Buffer.from((params.sign ?? '').toLowerCase(), 'utf8');
  const expected = Buffer.from(epaySign(params, key), 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The gateway's payment page, from the configured PayAddress. */
export const epaySubmitUrl = (payAddress: string): string => `${payAddress.replace(/\/+$/, '')}/submit.php`;

/** Query or form fields as single strings (a repeated field keeps its first value). */
export function flattenFields(input: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (typeof input !== 'object' || input === null) return out;
  for (const [k, v] of Object.entries(input)) {
    const first: unknown = Array.isArray(v) ? v[0] : v;
    if (typeof first === 'string') out[k] = first;
    else if (typeof first === 'number' || typeof first === 'boolean') out[k] = String(first);
  }
  return out;
}
