// Normalising the free-text token fields: the IP allow-list and the model limit list.
import { isIP } from 'node:net';
import { MSG } from '@sluice/shared';
import { badRequest } from '../../http/envelope.js';

const isCidr = (value: string): boolean => {
  const slash = value.indexOf('/');
  if (slash < 0) return false;
  const family = isIP(value.slice(0, slash));
  const prefix = value.slice(slash + 1);
  if (family === 0 || !/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
};

/** One IP address or CIDR range per line; blank lines dropped, duplicates merged. 400 on a bad line. */
export function normaliseAllowIps(text: string): string {
  const lines = [
    ...new Set(
      text
        .split(/\r?\n/)
        .map((l) => l.trim())
        .filter((l) => l !== ''),
    ),
  ];
  for (const line of lines) {
    if (isIP(line) === 0 && !isCidr(line)) throw badRequest(MSG.allowIpInvalid(line));
  }
  return lines.join('\n');
}

/** Comma-separated model names, trimmed and without duplicates. */
export function normaliseModelLimits(text: string): string {
  return [
    ...new Set(
      text
        .split(',')
        .map((m) => m.trim())
        .filter((m) => m !== ''),
    ),
  ].join(',');
}
