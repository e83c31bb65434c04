// Which email addresses may register or receive a verification code: a sane shape, the domain
// whitelist and the alias restriction. Registration and /api/verification apply the same rules.
import { MSG } from '@sluice/shared';
import type { OptionStore } from '../options/option-store.js';
import { badRequest } from '../../http/envelope.js';

type EmailOptions = Pick<OptionStore, 'get'>;

/** Addresses are stored and compared trimmed and lower-cased. */
export const normaliseEmail = (email: string): string => email.trim().toLowerCase();

// Deliberately loose: one @, no spaces, a dot in the domain. The verification mail proves the rest.
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const EMAIL_MAX_LENGTH = 254;

export const parseDomainWhitelist = (list: string): string[] =>
  list
    .split(',')
    .map((d) => d.trim().toLowerCase())
    .filter((d) => d !== '');

/**
 * The message explaining why this address is refused, or null when it is allowed.
 * The alias restriction refuses a local part containing '+' or '.', as new-api does: both let one
 * mailbox register many accounts at providers that ignore them (Gmail ignores dots and "+tag").
 */
export function emailRuleViolation(options: EmailOptions, email: string): string | null {
  const address = normaliseEmail(email);
  if (address.length > EMAIL_MAX_LENGTH || !EMAIL_SHAPE.test(address)) return MSG.emailInvalid;
  const at = address.lastIndexOf('@');
  const local = address.slice(0, at);
  const domain = address.slice(at + 1);
  if (
    options.get('EmailDomainRestrictionEnabled') &&
    !parseDomainWhitelist(options.get('EmailDomainWhitelist')).includes(domain)
  ) {
    return MSG.emailDomainNotAllowed;
  }
  if (options.get('EmailAliasRestrictionEnabled') && /[+.]/.test(local)) return MSG.emailAliasNotAllowed;
  return null;
}

/** Throws a 400 with the rule's message when the address is refused. */
export function assertEmailAllowed(options: EmailOptions, email: string): void {
  const violation = emailRuleViolation(options, email);
  if (violation !== null) throw badRequest(violation);
}
