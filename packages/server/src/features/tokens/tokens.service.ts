// Token rules: keys from the CSPRNG, groups the owner may use, expiry in the future, batch names,
// and refusing to enable a token that could not be used. Every write tells the relay's cache.
import type { Updateable } from 'kysely';
import { MSG, TOKEN_KEY_LENGTH, TOKEN_NAME_SUFFIX_LENGTH, TOKEN_STATUS } from '@sluice/shared';
import type { TokenCreate, TokenUpdate, TokenView } from '@sluice/shared';
import type { AppContext } from '../../app-context.js';
import type { TokensTable, UserRow } from '../../db/tables.js';
import { badRequest, conflict, notFound } from '../../http/envelope.js';
import { randomString } from '../../platform/random.js';
import { normaliseAllowIps, normaliseModelLimits } from './token-fields.js';
import {
  deleteOwnToken,
  enableOwnToken,
  findOwnToken,
  findTokensByKeys,
  insertTokens,
  isExhausted,
  isExpired,
  toTokenView,
  updateOwnToken,
} from './tokens.repository.js';

/** The groups a user may put on a token: the admin's selectable groups plus the user's own. */
export function usableGroups(ctx: AppContext, user: Pick<UserRow, 'group'>): Set<string> {
  return new Set([...Object.keys(ctx.options.get('UserUsableGroups')), user.group]);
}

function checkGroup(ctx: AppContext, user: UserRow, group: string): void {
  if (group !== '' && !usableGroups(ctx, user).has(group)) throw badRequest(MSG.tokenGroupNotUsable(group));
}

function checkExpiry(expiredTime: number, now: number): void {
  if (expiredTime !== -1 && expiredTime <= now) throw badRequest(MSG.expiryInPast);
}

const notifyRelay = (ctx: AppContext, id: number) => ctx.bus.publish('tokens', String(id));

export async function createTokens(ctx: AppContext, user: UserRow, input: TokenCreate): Promise<TokenView[]> {
  const now = ctx.clock.now();
  checkExpiry(input.expired_time, now);
  checkGroup(ctx, user, input.group);
  const common = {
    user_id: user.id,
    status: TOKEN_STATUS.enabled,
    created_time: now,
    accessed_time: now,
    expired_time: input.expired_time,
    remain_quota: input.remain_quota,
    unlimited_quota: input.unlimited_quota ? 1 : 0,
    used_quota: 0,
    model_limits_enabled: input.model_limits_enabled ? 1 : 0,
    model_limits: normaliseModelLimits(input.model_limits),
    allow_ips: normaliseAllowIps(input.allow_ips),
    group: input.group,
  };
  const rows = Array.from({ length: input.count }, (_, i) => ({
    ...common,
    key: randomString(TOKEN_KEY_LENGTH),
    name: i === 0 ? input.name : `${input.name}-${randomString(TOKEN_NAME_SUFFIX_LENGTH)}`,
  }));
  await ctx.db.transaction().execute((trx) => insertTokens(trx, rows));
  const created = await findTokensByKeys(
    ctx.db,
    user.id,
    rows.map((r) => r.key),
  );
  for (const row of created) notifyRelay(ctx, Number(row.id));
  return created.map((row) => toTokenView(row, now));
}

export async function updateToken(ctx: AppContext, user: UserRow, input: TokenUpdate): Promise<TokenView> {
  const now = ctx.clock.now();
  const current = await findOwnToken(ctx.db, user.id, input.id);
  if (!current) throw notFound();
  const changes: Updateable<TokensTable> = {};
  if (input.name !== undefined) changes.name = input.name;
  if (input.remain_quota !== undefined) changes.remain_quota = input.remain_quota;
  // Unchanged values pass even if they no longer would as new ones (an old expiry time, a group the
  // admin has since withdrawn), so renaming a token never fails on a field the user did not touch.
  if (input.expired_time !== undefined) {
    if (input.expired_time !== Number(current.expired_time)) checkExpiry(input.expired_time, now);
    changes.expired_time = input.expired_time;
  }
  if (input.group !== undefined) {
    if (input.group !== current.group) checkGroup(ctx, user, input.group);
    changes.group = input.group;
  }
  if (input.unlimited_quota !== undefined) changes.unlimited_quota = input.unlimited_quota ? 1 : 0;
  if (input.model_limits_enabled !== undefined)
    changes.model_limits_enabled = input.model_limits_enabled ? 1 : 0;
  if (input.model_limits !== undefined) changes.model_limits = normaliseModelLimits(input.model_limits);
  if (input.allow_ips !== undefined) changes.allow_ips = normaliseAllowIps(input.allow_ips);

  if (Object.keys(changes).length > 0 && !(await updateOwnToken(ctx.db, user.id, input.id, changes))) {
    throw notFound();
  }
  notifyRelay(ctx, input.id);
  const updated = await findOwnToken(ctx.db, user.id, input.id);
  if (!updated) throw notFound();
  return toTokenView(updated, now);
}

export async function setTokenStatus(
  ctx: AppContext,
  user: UserRow,
  id: number,
  status: 1 | 2,
): Promise<TokenView> {
  const now = ctx.clock.now();
  if (status === TOKEN_STATUS.enabled) {
    if (!(await enableOwnToken(ctx.db, user.id, id, now))) {
      const current = await findOwnToken(ctx.db, user.id, id);
      if (!current) throw notFound();
      if (isExpired(current, now)) throw badRequest(MSG.tokenExpired);
      if (isExhausted(current)) throw badRequest(MSG.tokenExhausted);
      throw conflict('the token changed while it was being enabled, please retry');
    }
  } else if (!(await updateOwnToken(ctx.db, user.id, id, { status: TOKEN_STATUS.disabled }))) {
    throw notFound();
  }
  notifyRelay(ctx, id);
  const row = await findOwnToken(ctx.db, user.id, id);
  if (!row) throw notFound();
  return toTokenView(row, now);
}

export async function deleteToken(ctx: AppContext, user: UserRow, id: number): Promise<void> {
  if (!(await deleteOwnToken(ctx.db, user.id, id, ctx.clock.now()))) throw notFound();
  notifyRelay(ctx, id);
}
