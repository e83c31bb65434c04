// The last step of every sign-in (password, GitHub, LinuxDO, WeChat, Telegram): open a session,
// set the cookie and answer with the user object the console stores.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { MSG, USER_STATUS } from '@sluice/shared';
import type { LoginResult } from '@sluice/shared';
import type { AppContext } from '../../app-context.js';
import type { UserRow } from '../../db/tables.js';
import { ApiError, ok } from '../../http/envelope.js';
import type { Envelope } from '../../http/envelope.js';
import { SESSION_COOKIE } from '../../http/auth-guard.js';

/**
 * `defaultPassword`: only the password login can know that root still uses the first-start password;
 * every other way of signing in leaves it false.
 */
export async function signInAndAnswer(
  ctx: AppContext,
  req: FastifyRequest,
  reply: FastifyReply,
  user: UserRow,
  opts: { defaultPassword?: boolean } = {},
): Promise<Envelope<LoginResult>> {
  // Callers check credentials; this refuses a banned account whatever way it arrived.
  if (user.status !== USER_STATUS.enabled) throw new ApiError(403, MSG.userBanned);
  const id = Number(user.id);
  const sessionId = await ctx.sessions.create(id);
  reply.setCookie(SESSION_COOKIE, sessionId, {
    signed: true,
    httpOnly: true,
    sameSite: 'strict',
    secure: req.protocol === 'https',
    path: '/',
    maxAge: ctx.config.sessionTtlSeconds,
  });
  return ok({
    id,
    username: user.username,
    display_name: user.display_name,
    role: user.role,
    status: user.status,
    group: user.group,
    default_password: opts.defaultPassword ?? false,
    password_change_required: user.password_change_required === 1,
  });
}
