// /api/redemption/* (admin) and redeeming a code from the wallet (POST /api/user/topup).
import type { FastifyInstance } from 'fastify';
import {
  redeemSchema,
  redemptionCreateSchema,
  redemptionListQuery,
  redemptionSearchQuery,
  redemptionStatusSchema,
  redemptionUpdateSchema,
} from '@sluice/shared';
import type { AppContext } from '../../app-context.js';
import { currentUser } from '../../http/auth-guard.js';
import { notFound, ok, parseInput } from '../../http/envelope.js';
import { idParam, isStatusOnly, listAnswer, listPaging, withAndWithoutSlash } from '../logs/list-helpers.js';
import {
  countRedemptions,
  findRedemption,
  listRedemptions,
  toRedemptionView,
} from './redemptions.repository.js';
import {
  createRedemptions,
  deleteRedemption,
  redeem,
  setRedemptionStatus,
  updateRedemption,
} from './redemptions.service.js';

export function registerRedemptionRoutes(app: FastifyInstance, ctx: AppContext): void {
  /** `size` codes as a plain array, or the page object when the client sent page_size. */
  const list = (
    q: { p: number; size: number; page_size?: number | undefined },
    keyword: string | undefined,
  ) => {
    const paging = listPaging(q, q.size);
    const rows = listRedemptions(ctx.db, keyword, { offset: paging.offset, limit: paging.pageSize });
    return listAnswer(
      paging,
      rows.then((found) => found.map(toRedemptionView)),
      () => countRedemptions(ctx.db, keyword),
    );
  };

  for (const url of withAndWithoutSlash('/api/redemption/')) {
    app.get(url, { config: { auth: 'admin' } }, async (req) =>
      ok(await list(parseInput(redemptionListQuery, req.query), undefined)),
    );

    app.post(url, { config: { auth: 'admin' } }, async (req) =>
      ok(await createRedemptions(ctx, currentUser(req), parseInput(redemptionCreateSchema, req.body))),
    );

    app.put(url, { config: { auth: 'admin' } }, async (req) => {
      if (isStatusOnly(req.query)) {
        const { id, status } = parseInput(redemptionStatusSchema, req.body);
        return ok(await setRedemptionStatus(ctx, id, status));
      }
      return ok(await updateRedemption(ctx, parseInput(redemptionUpdateSchema, req.body)));
    });
  }

  app.get('/api/redemption/search', { config: { auth: 'admin' } }, async (req) => {
    const q = parseInput(redemptionSearchQuery, req.query);
    return ok(await list(q, q.keyword));
  });

  app.get('/api/redemption/:id', { config: { auth: 'admin' } }, async (req) => {
    const { id } = parseInput(idParam, req.params);
    const row = await findRedemption(ctx.db, id);
    if (!row) throw notFound();
    return ok(toRedemptionView(row));
  });

  for (const url of ['/api/redemption/:id', '/api/redemption/:id/']) {
    app.delete(url, { config: { auth: 'admin' } }, async (req) => {
      const { id } = parseInput(idParam, req.params);
      await deleteRedemption(ctx, id);
      return ok(null);
    });
  }

  app.post('/api/user/topup', { config: { auth: 'user' } }, async (req) => {
    const { key } = parseInput(redeemSchema, req.body);
    return ok(await redeem(ctx, currentUser(req), key));
  });
}
