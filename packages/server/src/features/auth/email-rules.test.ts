import { describe, expect, it } from 'vitest';
import { MSG } from '@sluice/shared';
import { assertEmailAllowed, emailRuleViolation, normaliseEmail } from './email-rules.js';

type Values = {
  EmailDomainRestrictionEnabled: boolean;
  EmailAliasRestrictionEnabled: boolean;
  EmailDomainWhitelist: string;
};
const options = (values: Partial<Values> = {}) => {
  const all: Values = {
    EmailDomainRestrictionEnabled: false,
    EmailAliasRestrictionEnabled: false,
    EmailDomainWhitelist: 'gmail.com,qq.com',
    ...values,
  };
  return { get: ((key: keyof Values) => all[key]) as never };
};

describe('email rules', () => {
  it('normalises case and surrounding spaces', () => {
    expect(normaliseEmail('  Some.One@Example.COM ')).toBe('some.one@example.com');
  });

  it('refuses addresses that are not shaped like one', () => {
    for (const email of ['', 'plain', 'a@b', 'a b@c.com', '@c.com', 'a@@c.com', `${'x'.repeat(250)}@c.com`]) {
      expect([email, emailRuleViolation(options(), email)]).toEqual([email, MSG.emailInvalid]);
    }
    expect(emailRuleViolation(options(), 'a.b+c@sub.example.com')).toBeNull();
  });

  it('applies the domain whitelist only when it is switched on, matching whole domains', () => {
    expect(emailRuleViolation(options(), 'me@elsewhere.org')).toBeNull();
    const on = options({
      EmailDomainRestrictionEnabled: true,
      EmailDomainWhitelist: ' Gmail.com , qq.com,,',
    });
    expect(emailRuleViolation(on, 'me@gmail.com')).toBeNull();
    expect(emailRuleViolation(on, 'ME@QQ.COM')).toBeNull();
    expect(emailRuleViolation(on, 'me@elsewhere.org')).toBe(MSG.emailDomainNotAllowed);
    expect(emailRuleViolation(on, 'me@mail.gmail.com')).toBe(MSG.emailDomainNotAllowed);
    expect(emailRuleViolation(on, 'me@notgmail.com')).toBe(MSG.emailDomainNotAllowed);
  });

  it('refuses "+" and "." in the local part when aliases are restricted', () => {
    const on = options({ EmailAliasRestrictionEnabled: true });
    expect(emailRuleViolation(on, 'plain@example.com')).toBeNull();
    expect(emailRuleViolation(on, 'me+tag@example.com')).toBe(MSG.emailAliasNotAllowed);
    expect(emailRuleViolation(on, 'me.too@example.com')).toBe(MSG.emailAliasNotAllowed);
    // Dots in the domain are not aliases.
    expect(emailRuleViolation(on, 'me@mail.example.co.uk')).toBeNull();
    expect(emailRuleViolation(options(), 'me+tag@example.com')).toBeNull();
  });

  it('throws a 400 with the reason', () => {
    const on = options({ EmailAliasRestrictionEnabled: true });
    expect(() => assertEmailAllowed(on, 'me+x@example.com')).toThrow(
      expect.objectContaining({ status: 400, message: MSG.emailAliasNotAllowed }),
    );
    expect(() => assertEmailAllowed(on, 'me@example.com')).not.toThrow();
  });
});
