// Password sign-in and registration rules; the routes only carry HTTP (cookie, Turnstile, limits).
import { MSG, ROLE } from '@sluice/shared';
import type { LoginInput, RegisterInput } from '@sluice/shared';
import type { AppContext } from '../../app-context.js';
import type { UserRow } from '../../db/tables.js';
import { badRequest, conflict } from '../../http/envelope.js';
import { randomString } from '../../platform/random.js';
import { createAccount } from '../users/account-creation.js';
import { ROOT_DEFAULT_PASSWORD, ROOT_USERNAME } from '../users/root-user.js';
import { findUserByBinding, findUserByUsername } from '../users/users.repository.js';
import { assertEmailAllowed, normaliseEmail } from './email-rules.js';
import { hashPassword, verifyPassword } from './password.js';

// An unknown username still costs one bcrypt check, so response time does not reveal which
// usernames exist.
const dummyHashes = new Map<number, Promise<string>>();
function dummyHash(cost: number): Promise<string> {
  let hash = dummyHashes.get(cost);
  if (!hash) dummyHashes.set(cost, (hash = hashPassword(randomString(20), cost)));
  return hash;
}

/**
 * Checks username and password. The session and the banned-account refusal are the shared last step
 * of every sign-in (sign-in.ts); only this path can tell that root still uses the first-start password.
 */
export async function checkPasswordLogin(
  ctx: AppContext,
  input: LoginInput,
): Promise<{ user: UserRow; defaultPassword: boolean }> {
  const user = await findUserByUsername(ctx.db, input.username);
  const matches = await verifyPassword(
    input.password,
    user?.password ?? (await dummyHash(ctx.config.bcryptCost)),
  );
  // 400, not 401: the console treats 401 as "your session expired".
  if (!user || !matches) throw badRequest(MSG.usernamePasswordWrong);
  const defaultPassword =
    user.role >= ROLE.root && user.username === ROOT_USERNAME && input.password === ROOT_DEFAULT_PASSWORD;
  return { user, defaultPassword };
}

/**
 * Creates an account from the register form. With email verification on, the address must pass the
 * site's email rules, be unused and come with the code mailed to it; with it off, an email in the
 * form is ignored, because an unverified address must not become one that password resets go to.
 */
export async function registerWithPassword(ctx: AppContext, input: RegisterInput): Promise<UserRow> {
  let email: string | undefined;
  if (ctx.options.get('EmailVerificationEnabled')) {
    email = normaliseEmail(input.email ?? '');
    if (email === '') throw badRequest(MSG.enterEmail);
    const code = input.verification_code ?? '';
    if (code === '') throw badRequest(MSG.enterEmailCode);
    assertEmailAllowed(ctx.options, email);
    if (await findUserByBinding(ctx.db, 'email', email)) throw conflict(MSG.emailTaken);
    // Checked before the code is spent, so a taken name does not cost the user their code.
    if (await findUserByUsername(ctx.db, input.username, { withDeleted: true }))
      throw conflict(MSG.usernameTaken);
    // Consuming succeeds for one caller only, so one code makes one account even under races.
    if (!(await ctx.codes.check('email_verify', email, code, { consume: true })))
      throw badRequest(MSG.emailCodeWrong);
  }
  return createAccount(ctx, {
    username: input.username,
    password: input.password,
    ...(email !== undefined ? { email } : {}),
    ...(input.aff_code ? { affCode: input.aff_code } : {}),
  });
}
