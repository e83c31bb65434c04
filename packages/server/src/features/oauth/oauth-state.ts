// The OAuth `state`: issued before the browser leaves for the provider, checked and consumed once
// when it comes back. It is stored server-side with the invite code (so any node can check it) and
// also set as a cookie in the browser that asked for it: a callback link carrying someone else's
// state and code then fails instead of binding the sender's provider account to the victim's.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { MSG, OAUTH_STATE_TTL_SECONDS } from '@sluice/shared';
import type { AppContext } from '../../app-context.js';
import { badRequest } from '../../http/envelope.js';
import { randomString } from '../../platform/random.js';

export const OAUTH_STATE_COOKIE = 'oauth_state';
/**
 * Sign-ins under way at once, at most. A state lives OAUTH_STATE_TTL_SECONDS; past the cap new ones
 * are refused until old ones are used or expire, so the table cannot be grown without limit.
 */
export const MAX_PENDING_STATES = 10_000;
const COOKIE_PATH = '/api/oauth';
// Lower case only: stored codes are compared case-insensitively.
const STATE_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

export async function issueState(
  ctx: AppContext,
  req: FastifyRequest,
  reply: FastifyReply,
  affCode: string,
): Promise<string> {
  if ((await ctx.codes.countLive('oauth_state')) >= MAX_PENDING_STATES) {
    throw badRequest(MSG.oauthTooManyPending);
  }
  const state = randomString(32, STATE_ALPHABET);
  await ctx.codes.issue('oauth_state', state, affCode, OAUTH_STATE_TTL_SECONDS);
  reply.setCookie(OAUTH_STATE_COOKIE, state, {
    signed: true,
    httpOnly: true,
    sameSite: 'lax',
    secure: req.protocol === 'https',
    path: COOKIE_PATH,
    maxAge: OAUTH_STATE_TTL_SECONDS,
  });
  return state;
}

/** Consumes the state; returns the invite code stored with it ('' when none). */
export async function consumeState(
  ctx: AppContext,
  req: FastifyRequest,
  reply: FastifyReply,
  state: string,
): Promise<string> {
  const cookie = req.cookies[OAUTH_STATE_COOKIE];
  const unsigned = cookie ? req.unsignCookie(cookie) : null;
  if (!unsigned?.valid || unsigned.value !== state) throw badRequest(MSG.oauthStateInvalid);
  const aff = await ctx.codes.take('oauth_state', state);
  if (aff === null) throw badRequest(MSG.oauthStateInvalid);
  reply.clearCookie(OAUTH_STATE_COOKIE, { path: COOKIE_PATH });
  return aff;
}
