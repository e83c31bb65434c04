// WeChat sign-in through the operator's WeChat server: the user gets a short code from the official
// account, and the server trades it for the user's openid.
import type { FastifyBaseLogger } from 'fastify';
import { MSG } from '@sluice/shared';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import { badRequest } from '../../http/envelope.js';
import type { ExternalIdentity } from './external-account.js';
import { callProvider, isSuccess, providerFailure } from './provider-http.js';

const PROVIDER = 'WeChat';

const answer = z.object({
  success: z.boolean(),
  message: z.string().optional(),
  data: z.string().optional(),
});

export async function wechatIdentity(
  ctx: AppContext,
  log: FastifyBaseLogger,
  code: string,
): Promise<ExternalIdentity> {
  const base = ctx.options.get('WeChatServerAddress').trim().replace(/\/+$/, '');
  const res = await callProvider(log, PROVIDER, `${base}/api/wechat/user?code=${encodeURIComponent(code)}`, {
    headers: { accept: 'application/json', authorization: ctx.options.get('WeChatServerToken') },
  });
  const parsed = answer.safeParse(res.json);
  if (!isSuccess(res.status) || !parsed.success) {
    throw providerFailure(log, PROVIDER, 'WeChat server answered unexpectedly', { status: res.status });
  }
  const openid = parsed.data.data?.trim() ?? '';
  if (!parsed.data.success || openid === '') throw badRequest(MSG.wechatCodeInvalid);
  return {
    provider: PROVIDER,
    column: 'wechat_id',
    externalId: openid,
    usernamePrefix: 'wechat',
    displayName: 'WeChat User',
  };
}
