// The /api/user/* routes: user management (admin) here, the caller's own account in self.routes.ts;
// and the low-quota warning that follows the relay's billing (quota-warning.ts).
import type { FastifyInstance } from 'fastify';
import {
  USER_PAGE_SIZE_DEFAULT,
  userCreateSchema,
  userIdSchema,
  userListQuerySchema,
  userManageSchema,
  userSearchQuerySchema,
  userUpdateSchema,
} from '@sluice/shared';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import { currentUser } from '../../http/auth-guard.js';
import { ok, parseInput } from '../../http/envelope.js';
import { listAnswer, listPaging } from '../logs/list-helpers.js';
import { registerQuotaWarnings } from './quota-warning.js';
import { registerSelfRoutes } from './self.routes.js';
import { countUsers, searchUsers, toPublicUser } from './users.repository.js';
import type { UserFilter } from './users.repository.js';
import { adminCreateUser, adminUpdateUser, getUserForAdmin, manageUser } from './users.service.js';

const idParams = z.object({ id: userIdSchema });

export async function registerUserRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const admin = { config: { auth: 'admin' as const } };

  /** Every user when the filter is empty; the page object when the client sent page_size. */
  const list = (query: { p: number; page_size?: number | undefined }, filter: UserFilter) => {
    const paging = listPaging(query, USER_PAGE_SIZE_DEFAULT);
    const rows = searchUsers(ctx.db, filter, { offset: paging.offset, limit: paging.pageSize });
    return listAnswer(
      paging,
      rows.then((found) => found.map(toPublicUser)),
      () => countUsers(ctx.db, filter),
    );
  };

  app.get('/api/user/', admin, async (req) =>
    ok(await list(parseInput(userListQuerySchema, req.query), { keyword: '', group: '' })),
  );

  app.get('/api/user/search', admin, async (req) => {
    const query = parseInput(userSearchQuerySchema, req.query);
    return ok(await list(query, query));
  });

  app.get('/api/user/:id', admin, async (req) => {
    const { id } = parseInput(idParams, req.params);
    return ok(await getUserForAdmin(ctx, currentUser(req), id));
  });

  app.post('/api/user/', admin, async (req) => {
    const input = parseInput(userCreateSchema, req.body);
    return ok(await adminCreateUser(ctx, currentUser(req), input));
  });

  app.put('/api/user/', admin, async (req) => {
    const input = parseInput(userUpdateSchema, req.body);
    return ok(await adminUpdateUser(ctx, currentUser(req), input, req.sessionId));
  });

  app.post('/api/user/manage', admin, async (req) => {
    const input = parseInput(userManageSchema, req.body);
    return ok(await manageUser(ctx, currentUser(req), input));
  });

  registerSelfRoutes(app, ctx);
  registerQuotaWarnings(app, ctx);
}
