// Online top-up: POST /api/user/amount (quote), POST /api/user/pay (order + gateway form), and the
// gateway's notification GET/POST /api/user/epay/notify, answered in plain text as Epay expects.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { topupAmountSchema, topupPaySchema } from '@sluice/shared';
import type { AppContext } from '../../app-context.js';
import { currentUser } from '../../http/auth-guard.js';
import { ok, parseInput } from '../../http/envelope.js';
import { flattenFields } from './epay.js';
import { createPayment, EPAY_NOTIFY_PATH, handleEpayNotify, quoteTopup } from './topup.service.js';

const FORM = 'application/x-www-form-urlencoded';

export async function registerTopupRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.post('/api/user/amount', { config: { auth: 'user' } }, async (req) => {
    const { amount } = parseInput(topupAmountSchema, req.body);
    return ok(quoteTopup(ctx, currentUser(req), amount), 'success');
  });

  app.post('/api/user/pay', { config: { auth: 'user' } }, async (req) =>
    createPayment(ctx, currentUser(req), parseInput(topupPaySchema, req.body)),
  );

  const notify = async (req: FastifyRequest, reply: FastifyReply) => {
    const params = { ...flattenFields(req.body), ...flattenFields(req.query) };
    let answer: 'success' | 'fail';
    try {
      answer = await handleEpayNotify(ctx, params, req.log);
    } catch (error) {
      // The gateway retries on 'fail'; the order stays pending, so a retry can still credit it.
      req.log.error({ err: error }, 'epay notify failed');
      answer = 'fail';
    }
    return reply.type('text/plain; charset=utf-8').send(answer);
  };

  // Gateways may post the notification as a form; the parser is scoped to this route only.
  await app.register(async (scope) => {
    if (!scope.hasContentTypeParser(FORM)) {
      scope.addContentTypeParser(FORM, { parseAs: 'string' }, (_req, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(String(body))));
      });
    }
    scope.get(EPAY_NOTIFY_PATH, { config: { auth: 'public' } }, notify);
    scope.post(EPAY_NOTIFY_PATH, { config: { auth: 'public' } }, notify);
  });
}
