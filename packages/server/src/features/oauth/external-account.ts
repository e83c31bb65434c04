// What every third-party provider shares once it has told us who the person is: bind the identity
// to the signed-in user, or sign in the user holding it, or create that user.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DISPLAY_NAME_MAX_LENGTH, MSG, USERNAME_MAX_LENGTH, USER_STATUS } from '@sluice/shared';
import type { LoginResult } from '@sluice/shared';
import type { AppContext } from '../../app-context.js';
import type { UserRow } from '../../db/tables.js';
import { ApiError, conflict, forbidden } from '../../http/envelope.js';
import type { Envelope } from '../../http/envelope.js';
import { randomDigits } from '../../platform/random.js';
import { emailRuleViolation, normaliseEmail } from '../auth/email-rules.js';
import { signInAndAnswer } from '../auth/sign-in.js';
import { createAccount } from '../users/account-creation.js';
import { findUserByBinding, updateLiveUser } from '../users/users.repository.js';

export type ProviderColumn = 'github_id' | 'linux_do_id' | 'wechat_id' | 'telegram_id';

export interface ExternalIdentity {
  /** Name shown in messages: GitHub, LinuxDO, WeChat, Telegram. */
  provider: string;
  column: ProviderColumn;
  /** The provider's stable id for the person (numeric ids as decimal text, WeChat's openid). */
  externalId: string;
  /** Prefix of generated usernames: github_…, linuxdo_… */
  usernamePrefix: string;
  /** The person's name at the provider, used as username when free and valid. */
  preferredUsername?: string;
  displayName?: string;
  /** Kept on the new account when it is allowed and nobody uses it yet. */
  email?: string;
}

/** Binds the identity to the signed-in user; refused when another user holds it. */
export async function bindIdentity(
  ctx: AppContext,
  user: UserRow,
  identity: ExternalIdentity,
): Promise<void> {
  const holder = await findUserByBinding(ctx.db, identity.column, identity.externalId);
  if (holder && Number(holder.id) !== Number(user.id))
    throw conflict(MSG.oauthAccountBound(identity.provider));
  await updateLiveUser(ctx.db, Number(user.id), { [identity.column]: identity.externalId });
}

/** Signs in the user bound to the identity, creating the account first when registration is open. */
export async function signInWithIdentity(
  ctx: AppContext,
  req: FastifyRequest,
  reply: FastifyReply,
  identity: ExternalIdentity,
  affCode = '',
): Promise<Envelope<LoginResult>> {
  const existing = await findUserByBinding(ctx.db, identity.column, identity.externalId);
  if (existing) {
    if (existing.status !== USER_STATUS.enabled) throw new ApiError(403, MSG.userBanned);
    return signInAndAnswer(ctx, req, reply, existing);
  }
  if (!ctx.options.get('RegisterEnabled')) throw forbidden(MSG.registerDisabled);
  const created = await registerIdentity(ctx, identity, affCode);
  return signInAndAnswer(ctx, req, reply, created);
}

const USERNAME_SHAPE = /^[A-Za-z0-9_.-]+$/;
const fits = (name: string) => name.length <= USERNAME_MAX_LENGTH && USERNAME_SHAPE.test(name);

/** Usernames to try in order: the provider's, then prefix_<id>, then prefix_<random digits>. */
function usernameCandidates(identity: ExternalIdentity): string[] {
  const out: string[] = [];
  const preferred = identity.preferredUsername?.trim() ?? '';
  if (preferred !== '' && fits(preferred)) out.push(preferred);
  const numbered = `${identity.usernamePrefix}_${identity.externalId}`;
  if (/^\d+$/.test(identity.externalId) && fits(numbered)) out.push(numbered);
  for (let i = 0; i < 3; i++) out.push(`${identity.usernamePrefix}_${randomDigits(8)}`);
  return out;
}

async function usableEmail(ctx: AppContext, email: string | undefined): Promise<string> {
  if (!email) return '';
  const address = normaliseEmail(email);
  if (emailRuleViolation(ctx.options, address) !== null) return '';
  return (await findUserByBinding(ctx.db, 'email', address)) ? '' : address;
}

async function registerIdentity(
  ctx: AppContext,
  identity: ExternalIdentity,
  affCode: string,
): Promise<UserRow> {
  const displayName = (identity.displayName?.trim() || identity.preferredUsername?.trim() || '').slice(
    0,
    DISPLAY_NAME_MAX_LENGTH,
  );
  const email = await usableEmail(ctx, identity.email);
  let lastError: unknown;
  // createAccount reports a taken username as a 409 (also when another sign-up takes it first).
  for (const username of usernameCandidates(identity)) {
    try {
      return await createAccount(ctx, {
        username,
        ...(displayName ? { display_name: displayName } : {}),
        ...(email ? { email } : {}),
        [identity.column]: identity.externalId,
        ...(affCode ? { affCode } : {}),
      });
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 409)) throw error;
      lastError = error;
    }
  }
  throw lastError;
}
