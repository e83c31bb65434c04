// Drawing (/api/mj/) and async task (/api/task/) lists: everyone's for admins, one's own for users.
// Both answer a plain array of rows for a 0-based `p`, as new-api does (see mjListQuery).
import type { FastifyInstance } from 'fastify';
import { mjListQuery, taskListQuery } from '@sluice/shared';
import type { AppContext } from '../../app-context.js';
import { currentUser } from '../../http/auth-guard.js';
import { ok, parseInput } from '../../http/envelope.js';
import { withAndWithoutSlash } from '../logs/list-helpers.js';
import { shownImageUrl } from '../../relay/tasks/midjourney/task-view.js';
import { listMidjourneys, listTasks, toMidjourneyItem, toTaskItem } from './tasks.repository.js';

export function registerTaskRoutes(app: FastifyInstance, ctx: AppContext): void {
  /** `self` is the caller's id on the self routes, null on the admin ones. */
  const drawings = async (query: unknown, self: number | null) => {
    const q = parseInput(mjListQuery, query);
    const rows = await listMidjourneys(ctx.db, self === null ? q : { ...q, userId: self });
    // With MjForwardUrlEnabled the console shows Sluice's image address, as the relay's answers do.
    return ok(
      rows.map((r) =>
        toMidjourneyItem(Object.assign(r, { image_url: shownImageUrl(ctx.options, r) }), self === null),
      ),
    );
  };
  const tasks = async (query: unknown, self: number | null) => {
    const q = parseInput(taskListQuery, query);
    const rows = await listTasks(ctx.db, self === null ? q : { ...q, userId: self });
    return ok(rows.map((r) => toTaskItem(r, self === null)));
  };

  for (const url of withAndWithoutSlash('/api/mj/')) {
    app.get(url, { config: { auth: 'admin' } }, async (req) => drawings(req.query, null));
  }
  for (const url of withAndWithoutSlash('/api/mj/self/')) {
    app.get(url, { config: { auth: 'user' } }, async (req) => drawings(req.query, currentUser(req).id));
  }
  for (const url of withAndWithoutSlash('/api/task/')) {
    app.get(url, { config: { auth: 'admin' } }, async (req) => tasks(req.query, null));
  }
  for (const url of withAndWithoutSlash('/api/task/self/')) {
    app.get(url, { config: { auth: 'user' } }, async (req) => tasks(req.query, currentUser(req).id));
  }
}
