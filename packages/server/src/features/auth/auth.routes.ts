// Password sign-in, sign-out and registration.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MSG, loginSchema, registerSchema } from '@sluice/shared';
import type { AppContext } from '../../app-context.js';
import { SESSION_COOKIE } from '../../http/auth-guard.js';
import { forbidden, ok, parseInput } from '../../http/envelope.js';
import { criticalRateLimit } from '../../http/rate-limits.js';
import { signInAndAnswer } from './sign-in.js';
import { checkPasswordLogin, registerWithPassword } from './sign-in.service.js';
import { requireTurnstile } from './turnstile.js';

/** The session id in the caller's signed cookie, whether or not the session is still live. */
function sessionIdFromCookie(req: FastifyRequest): string | null {
  const raw = req.cookies[SESSION_COOKIE];
  if (!raw) return null;
  const unsigned = req.unsignCookie(raw);
  return unsigned.valid && unsigned.value ? unsigned.value : null;
}

export function clearSessionCookie(reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, { path: '/' });
}

export async function registerAuthRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const limited = { auth: 'public' as const, rateLimit: criticalRateLimit(ctx.config) };

  app.post('/api/user/login', { config: limited }, async (req, reply) => {
    if (!ctx.options.get('PasswordLoginEnabled')) throw forbidden(MSG.passwordLoginDisabled);
    await requireTurnstile(ctx, req);
    const input = parseInput(loginSchema, req.body);
    const { user, defaultPassword } = await checkPasswordLogin(ctx, input);
    return signInAndAnswer(ctx, req, reply, user, { defaultPassword });
  });

  app.get('/api/user/logout', { config: { auth: 'public' } }, async (req, reply) => {
    // Read from the cookie itself: signing out must work even without the New-Api-User header.
    const sessionId = sessionIdFromCookie(req);
    if (sessionId) await ctx.sessions.revoke(sessionId);
    clearSessionCookie(reply);
    return ok(null);
  });

  app.post('/api/user/register', { config: limited }, async (req) => {
    if (!ctx.options.get('RegisterEnabled')) throw forbidden(MSG.registerDisabled);
    if (!ctx.options.get('PasswordRegisterEnabled')) throw forbidden(MSG.passwordRegisterDisabled);
    await requireTurnstile(ctx, req);
    const input = parseInput(registerSchema, req.body);
    await registerWithPassword(ctx, input);
    // Registration does not sign in: the console sends the new user to the login page.
    return ok(null);
  });
}
