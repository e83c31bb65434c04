// /api/token/*: a user's own tokens. Another user's token id answers 404, as an unknown one does.
import type { FastifyInstance } from 'fastify';
import {
  TOKEN_KEY_PREFIX,
  tokenCreateSchema,
  tokenListQuery,
  tokenSearchQuery,
  tokenStatusSchema,
  tokenUpdateSchema,
} from '@sluice/shared';
import type { AppContext } from '../../app-context.js';
import { currentUser } from '../../http/auth-guard.js';
import { notFound, ok, parseInput } from '../../http/envelope.js';
import type { UserRow } from '../../db/tables.js';
import { idParam, isStatusOnly, listAnswer, listPaging, withAndWithoutSlash } from '../logs/list-helpers.js';
import { countOwnTokens, findOwnToken, listOwnTokens, toTokenView } from './tokens.repository.js';
import type { TokenFilter } from './tokens.repository.js';
import { createTokens, deleteToken, setTokenStatus, updateToken } from './tokens.service.js';

export function registerTokenRoutes(app: FastifyInstance, ctx: AppContext): void {
  /** The caller's tokens: `size` rows as a plain array, or the page object when page_size was sent. */
  const list = (
    user: UserRow,
    q: { p: number; size: number; page_size?: number | undefined },
    filter: TokenFilter,
  ) => {
    const paging = listPaging(q, q.size);
    const now = ctx.clock.now();
    const rows = listOwnTokens(ctx.db, user.id, filter, { offset: paging.offset, limit: paging.pageSize });
    return listAnswer(
      paging,
      rows.then((found) => found.map((r) => toTokenView(r, now))),
      () => countOwnTokens(ctx.db, user.id, filter),
    );
  };

  for (const url of withAndWithoutSlash('/api/token/')) {
    app.get(url, { config: { auth: 'user' } }, async (req) =>
      ok(await list(currentUser(req), parseInput(tokenListQuery, req.query), {})),
    );

    app.post(url, { config: { auth: 'user' } }, async (req) =>
      ok(await createTokens(ctx, currentUser(req), parseInput(tokenCreateSchema, req.body))),
    );

    app.put(url, { config: { auth: 'user' } }, async (req) => {
      const user = currentUser(req);
      if (isStatusOnly(req.query)) {
        const { id, status } = parseInput(tokenStatusSchema, req.body);
        return ok(await setTokenStatus(ctx, user, id, status));
      }
      return ok(await updateToken(ctx, user, parseInput(tokenUpdateSchema, req.body)));
    });
  }

  app.get('/api/token/search', { config: { auth: 'user' } }, async (req) => {
    const q = parseInput(tokenSearchQuery, req.query);
    const key = q.token?.startsWith(TOKEN_KEY_PREFIX) ? q.token.slice(TOKEN_KEY_PREFIX.length) : q.token;
    return ok(await list(currentUser(req), q, { name: q.keyword, key: key || undefined }));
  });

  app.get('/api/token/:id', { config: { auth: 'user' } }, async (req) => {
    const { id } = parseInput(idParam, req.params);
    const row = await findOwnToken(ctx.db, currentUser(req).id, id);
    if (!row) throw notFound();
    return ok(toTokenView(row, ctx.clock.now()));
  });

  for (const url of ['/api/token/:id', '/api/token/:id/']) {
    app.delete(url, { config: { auth: 'user' } }, async (req) => {
      const { id } = parseInput(idParam, req.params);
      await deleteToken(ctx, currentUser(req), id);
      return ok(null);
    });
  }
}
