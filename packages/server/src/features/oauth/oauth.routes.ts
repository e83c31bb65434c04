// Third-party sign-in and account binding: GitHub and LinuxDO (OAuth with a state), WeChat (code from
// the operator's WeChat server), Telegram (signed widget data) and email (code from the mail).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  MSG,
  emailBindSchema,
  oauthCallbackQuerySchema,
  oauthStateQuerySchema,
  wechatCodeQuerySchema,
} from '@sluice/shared';
import type { AppContext } from '../../app-context.js';
import { currentUser } from '../../http/auth-guard.js';
import { badRequest, conflict, forbidden, ok, parseInput } from '../../http/envelope.js';
import { criticalRateLimit } from '../../http/rate-limits.js';
import { assertEmailAllowed, normaliseEmail } from '../auth/email-rules.js';
import { serverAddress } from '../auth/server-address.js';
import { findUserByBinding, updateLiveUser } from '../users/users.repository.js';
import { bindIdentity, signInWithIdentity } from './external-account.js';
import type { ExternalIdentity } from './external-account.js';
import { githubIdentity } from './github.js';
import { linuxdoIdentity } from './linuxdo.js';
import { consumeState, issueState } from './oauth-state.js';
import { telegramIdentity } from './telegram.js';
import { wechatIdentity } from './wechat.js';

/** The callback page tells a binding from a sign-in by this message. */
const BIND_MESSAGE = 'bind';

export async function registerOAuthRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const o = ctx.options;
  const limited = { rateLimit: criticalRateLimit(ctx.config) };

  const requireEnabled = (enabled: boolean, provider: string) => {
    if (!enabled) throw forbidden(MSG.oauthNotEnabled(provider));
  };

  // Every sign-in and binding step is rate-limited per client address: each writes or checks a row,
  // and a flood of them must neither grow the tables nor let anyone guess codes.
  app.get('/api/oauth/state', { config: { auth: 'public', ...limited } }, async (req, reply) => {
    const { aff } = parseInput(oauthStateQuerySchema, req.query);
    return ok(await issueState(ctx, req, reply, aff ?? ''));
  });

  /** GitHub and LinuxDO callbacks: bind when signed in, otherwise sign in (or sign up). */
  const oauthCallback =
    (
      provider: string,
      isEnabled: () => boolean,
      identify: (req: FastifyRequest, code: string) => Promise<ExternalIdentity>,
    ) =>
    async (req: FastifyRequest, reply: FastifyReply) => {
      requireEnabled(isEnabled(), provider);
      const { code, state } = parseInput(oauthCallbackQuerySchema, req.query);
      const aff = await consumeState(ctx, req, reply, state);
      const identity = await identify(req, code);
      if (req.user) {
        await bindIdentity(ctx, req.user, identity);
        return ok(null, BIND_MESSAGE);
      }
      return signInWithIdentity(ctx, req, reply, identity, aff);
    };

  app.get(
    '/api/oauth/github',
    { config: { auth: 'public', ...limited } },
    oauthCallback(
      'GitHub',
      () => o.get('GitHubOAuthEnabled'),
      (req, code) => githubIdentity(ctx, req.log, code),
    ),
  );

  app.get(
    '/api/oauth/linuxdo',
    { config: { auth: 'public', ...limited } },
    oauthCallback(
      'LinuxDO',
      () => o.get('LinuxDOOAuthEnabled'),
      // Must equal the redirect_uri the browser was sent to the authorize page with.
      (req, code) => linuxdoIdentity(ctx, req.log, code, `${serverAddress(ctx)}/oauth/linuxdo`),
    ),
  );

  const wechatEnabled = () => o.get('WeChatAuthEnabled') && o.get('WeChatServerAddress').trim() !== '';

  // Rate-limited: WeChat codes are short, so guessing one must stay slow.
  app.get('/api/oauth/wechat', { config: { auth: 'public', ...limited } }, async (req, reply) => {
    requireEnabled(wechatEnabled(), 'WeChat');
    const { code, aff } = parseInput(wechatCodeQuerySchema, req.query);
    return signInWithIdentity(ctx, req, reply, await wechatIdentity(ctx, req.log, code), aff ?? '');
  });

  app.get('/api/oauth/wechat/bind', { config: { auth: 'user', ...limited } }, async (req) => {
    const user = currentUser(req);
    requireEnabled(wechatEnabled(), 'WeChat');
    const { code } = parseInput(wechatCodeQuerySchema, req.query);
    await bindIdentity(ctx, user, await wechatIdentity(ctx, req.log, code));
    return ok(null, MSG.bindSuccess);
  });

  // An empty bot token would make the signature computable by anyone, so it counts as switched off.
  const telegramBotToken = () => {
    const token = o.get('TelegramBotToken');
    requireEnabled(o.get('TelegramOAuthEnabled') && token !== '', 'Telegram');
    return token;
  };

  app.get('/api/oauth/telegram/login', { config: { auth: 'public', ...limited } }, async (req, reply) => {
    const identity = telegramIdentity(req.query, telegramBotToken(), ctx.clock.now());
    return signInWithIdentity(ctx, req, reply, identity);
  });

  app.get('/api/oauth/telegram/bind', { config: { auth: 'user', ...limited } }, async (req) => {
    const user = currentUser(req);
    await bindIdentity(ctx, user, telegramIdentity(req.query, telegramBotToken(), ctx.clock.now()));
    return ok(null, MSG.bindSuccess);
  });

  // Rate-limited: the code is six digits.
  app.get('/api/oauth/email/bind', { config: { auth: 'user', ...limited } }, async (req) => {
    const user = currentUser(req);
    const input = parseInput(emailBindSchema, req.query);
    const email = normaliseEmail(input.email);
    assertEmailAllowed(o, email);
    const holder = await findUserByBinding(ctx.db, 'email', email);
    if (holder && Number(holder.id) !== Number(user.id)) throw conflict(MSG.emailTaken);
    if (!(await ctx.codes.check('email_verify', email, input.code, { consume: true }))) {
      throw badRequest(MSG.emailCodeWrong);
    }
    await updateLiveUser(ctx.db, Number(user.id), { email });
    return ok(null, MSG.bindSuccess);
  });
}
