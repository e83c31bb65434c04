// The /api/user/* routes: user management (admin) here, the caller's own account in self.routes.ts.
import type { FastifyInstance } from 'fastify';
import {
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
import { registerSelfRoutes } from './self.routes.js';
import { listUsers, searchUsers, toPublicUser } from './users.repository.js';
import { adminCreateUser, adminUpdateUser, getUserForAdmin, manageUser } from './users.service.js';

const idParams = z.object({ id: userIdSchema });
const pageOf = (q: { p: number; page_size: number }) => ({ offset: q.p * q.page_size, limit: q.page_size });

export async function registerUserRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const admin = { config: { auth: 'admin' as const } };

  app.get('/api/user/', admin, async (req) => {
    const query = parseInput(userListQuerySchema, req.query);
    const rows = await listUsers(ctx.db, pageOf(query));
    return ok(rows.map(toPublicUser));
  });

  app.get('/api/user/search', admin, async (req) => {
    const query = parseInput(userSearchQuerySchema, req.query);
    const rows = await searchUsers(ctx.db, query, pageOf(query));
    return ok(rows.map(toPublicUser));
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
    return ok(await adminUpdateUser(ctx, currentUser(req), input));
  });

  app.post('/api/user/manage', admin, async (req) => {
    const input = parseInput(userManageSchema, req.body);
    return ok(await manageUser(ctx, currentUser(req), input));
  });

  registerSelfRoutes(app, ctx);
}
