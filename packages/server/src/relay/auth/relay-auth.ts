// Who is calling the relay and whether they may: the token from the key, its owner, the group the
// call is billed in. Read from memory; refusals are OpenAI-style errors (401: this key cannot be used;
// 403: the key is fine but this call is not allowed).
import type { FastifyRequest } from 'fastify';
import { ROLE, TOKEN_STATUS, USER_STATUS } from '@sluice/shared';
import { RelayError } from '../ir/errors.js';
import type { RelayRuntime } from '../pipeline/relay-runtime.js';
import type { CachedToken, CachedUser } from './credential-cache.js';
import { extractRelayKey, parseRelayKey } from './relay-key.js';

export interface RelayCaller {
  userId: number;
  username: string;
  role: number;
  /** Null when the console playground bills the user directly. */
  token: CachedToken | null;
  group: string;
  pinnedChannelId?: number;
  /** The caller's address as the logs record it: '' when the user's settings turn that off. */
  ip: string;
}

/** What a log row keeps of the caller's address `ip`: nothing when the user said record_ip_log false. */
export const loggedIp = (user: CachedUser, ip: string): string => (user.recordIpLog ? ip : '');

const refuse = (status: 401 | 403, message: string, code: string) => new RelayError(status, message, code);

async function markToken(rt: RelayRuntime, token: CachedToken, status: number): Promise<void> {
  await rt.ctx.db
    .updateTable('tokens')
    .set({ status })
    .where('id', '=', token.id)
    .where('status', '=', TOKEN_STATUS.enabled)
    .execute();
  rt.credentials.setTokenStatus(token.id, status);
  // Other nodes reload it; this one already holds the new status.
  rt.ctx.bus.publish('tokens', String(token.id));
}

const exhausted = () => refuse(401, 'the quota of this token is used up', 'token_quota_exhausted');

async function checkToken(rt: RelayRuntime, token: CachedToken): Promise<void> {
  switch (token.status) {
    case TOKEN_STATUS.enabled:
      break;
    case TOKEN_STATUS.expired:
      throw refuse(401, 'this token has expired', 'token_expired');
    case TOKEN_STATUS.exhausted:
      throw exhausted();
    default:
      throw refuse(401, 'this token has been disabled', 'token_disabled');
  }
  if (token.expiredTime !== -1 && token.expiredTime < rt.ctx.clock.now()) {
    await markToken(rt, token, TOKEN_STATUS.expired);
    throw refuse(401, 'this token has expired', 'token_expired');
  }
  // The ledger's view counts calls in flight and charges not written yet; the row's until it loads.
  const remain = rt.ledger.tokenAvailable(token.id) ?? token.remainQuota;
  if (!token.unlimited && remain <= 0) {
    await markToken(rt, token, TOKEN_STATUS.exhausted);
    throw exhausted();
  }
}

/** The group a call is billed in must be the user's own or one the site lets every user choose. */
export function checkGroup(rt: RelayRuntime, user: CachedUser, group: string): void {
  const usable = group === user.group || Object.hasOwn(rt.ctx.options.get('UserUsableGroups'), group);
  if (!usable) throw refuse(403, `group ${group} is not available to this user`, 'group_not_allowed');
  if (!Object.hasOwn(rt.ctx.options.get('GroupRatio'), group)) {
    throw refuse(
      403,
      `group ${group} has no price ratio; an administrator must add it to GroupRatio`,
      'group_not_priced',
    );
  }
}

export function checkUser(user: CachedUser | undefined): CachedUser {
  if (!user || user.deleted) throw refuse(403, 'the user of this token has been deleted', 'user_deleted');
  if (user.status !== USER_STATUS.enabled) throw refuse(403, 'the user has been banned', 'user_banned');
  return user;
}

export async function authenticateRelay(rt: RelayRuntime, req: FastifyRequest): Promise<RelayCaller> {
  const given = extractRelayKey(req.headers, req.query);
  if (!given)
    throw refuse(401, 'no API key was provided (use Authorization: Bearer sk-…)', 'missing_api_key');
  const parsed = parseRelayKey(given);
  const token = await rt.credentials.token(parsed.key);
  if (!token) throw refuse(401, 'invalid token', 'invalid_api_key');
  await checkToken(rt, token);
  const ip = req.ip;
  if (token.allowIps && !token.allowIps.allows(ip)) {
    throw refuse(403, `this token may not be used from ${ip}`, 'ip_not_allowed');
  }
  const user = checkUser(await rt.credentials.user(token.userId));
  const group = token.group || user.group;
  checkGroup(rt, user, group);
  if (parsed.channelId !== undefined && user.role < ROLE.admin) {
    throw refuse(403, 'only administrators can choose a channel with their key', 'channel_pin_not_allowed');
  }
  return {
    userId: user.id,
    username: user.username,
    role: user.role,
    token,
    group,
    ...(parsed.channelId !== undefined ? { pinnedChannelId: parsed.channelId } : {}),
    ip: loggedIp(user, ip),
  };
}

export function checkModelAllowed(caller: RelayCaller, model: string): void {
  const limits = caller.token?.modelLimits;
  if (limits && !limits.has(model)) {
    throw refuse(403, `this token is not allowed to use model ${model}`, 'model_not_allowed');
  }
}

/** The refusal when the quota hold failed: whose quota was short, and whether the token is now used up. */
export async function refuseShortQuota(
  rt: RelayRuntime,
  caller: RelayCaller,
  short: 'token' | 'user',
  amount: number,
): Promise<RelayError> {
  if (short === 'user' || !caller.token) {
    return refuse(
      403,
      `the user's quota is not enough for this request (it needs ${amount})`,
      'insufficient_user_quota',
    );
  }
  const token = caller.token;
  const remain = rt.ledger.tokenAvailable(token.id) ?? 0;
  if (remain <= 0) {
    await markToken(rt, token, TOKEN_STATUS.exhausted);
    return exhausted();
  }
  return refuse(
    403,
    `the token's quota is not enough for this request (it needs ${amount})`,
    'insufficient_token_quota',
  );
}
