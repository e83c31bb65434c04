// The caller's own account: profile, quota warning settings, deletion, access token, invite code and
// transfer, models, groups.
import type { FastifyInstance } from 'fastify';
import { selfUpdateSchema } from '@sluice/shared';
import type { AppContext } from '../../app-context.js';
import { currentUser } from '../../http/auth-guard.js';
import { ok, parseInput } from '../../http/envelope.js';
import { clearSessionCookie } from '../auth/auth.routes.js';
import { toSelfUser, updateUserSetting } from './user-setting.js';
import { modelsForGroup } from './users.repository.js';
import {
  affCodeOf,
  deleteSelf,
  issueAccessToken,
  transferInviteEarnings,
  updateSelf,
  usableGroups,
} from './users.service.js';

export function registerSelfRoutes(app: FastifyInstance, ctx: AppContext): void {
  const user = { config: { auth: 'user' as const } };

  app.get('/api/user/self', user, async (req) => ok(toSelfUser(currentUser(req))));

  app.put('/api/user/setting', user, async (req) => {
    await updateUserSetting(ctx, currentUser(req), req.body);
    return ok(null);
  });

  app.put('/api/user/self', user, async (req) => {
    const input = parseInput(selfUpdateSchema, req.body);
    return ok(await updateSelf(ctx, currentUser(req), req.sessionId, input));
  });

  app.delete('/api/user/self', user, async (req, reply) => {
    await deleteSelf(ctx, currentUser(req));
    clearSessionCookie(reply);
    return ok(null);
  });

  app.get('/api/user/token', user, async (req) => ok(await issueAccessToken(ctx, currentUser(req))));

  app.get('/api/user/aff', user, async (req) => ok(await affCodeOf(ctx, currentUser(req))));

  app.get('/api/user/models', user, async (req) => ok(await modelsForGroup(ctx.db, currentUser(req).group)));

  app.get('/api/user/self/groups', user, async (req) => ok(usableGroups(ctx, currentUser(req))));

  app.post('/api/user/aff_transfer', user, async (req) => {
    await transferInviteEarnings(ctx, currentUser(req), req.body);
    return ok(null);
  });
}
