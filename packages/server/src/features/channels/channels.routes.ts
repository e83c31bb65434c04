// Channel management (admin): list, search, read, create, update, delete, copy, abilities repair
// and the model catalogs. Tags, tests, balances and upstream model lists: channel-actions.routes.ts.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  channelCreateSchema,
  channelIdsSchema,
  channelListQuerySchema,
  channelSearchQuerySchema,
  channelUpdateSchema,
} from '@sluice/shared';
import type { AppContext } from '../../app-context.js';
import { ok, parseInput } from '../../http/envelope.js';
import { registerChannelActionRoutes } from './channel-actions.routes.js';
import { matchesSearch, searchTagMode, tagModePage } from './channel-list.js';
import {
  VIEW_COLUMNS,
  listChannelPage,
  listChannelViews,
  selectChannels,
  toChannelView,
} from './channels.repository.js';
import {
  copyChannel,
  createChannels,
  deleteChannel,
  deleteChannels,
  deleteDisabledChannels,
  rebuildAbilities,
  updateChannel,
} from './channels.service.js';
import { channelTypeModelMap, listEnabledModels, listKnownModels } from './model-catalog.js';
import { admin, channelIdParam, requireChannel } from './route-helpers.js';

const copyQuery = z.object({
  suffix: z.string().default('_copy'),
  reset_balance: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
});

export async function registerChannelRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.get('/api/channel/', admin, async (req) => {
    const q = parseInput(channelListQuerySchema, req.query);
    const offset = q.p * q.page_size;
    if (!q.tag_mode) {
      return ok(await listChannelPage(ctx.db, { idSort: q.id_sort, offset, limit: q.page_size }));
    }
    // A page of tags (untagged channels count as entries of their own), answered as the plain
    // channels of those tags: clients group them into tag rows themselves.
    return ok(tagModePage(await listChannelViews(ctx.db, q.id_sort), offset, q.page_size));
  });

  app.get('/api/channel/search', admin, async (req) => {
    const q = parseInput(channelSearchQuerySchema, req.query);
    // Matching in code keeps case and substring rules identical on the three databases; the
    // channel table is an operator-managed list of upstreams, small enough to scan.
    const rows = await selectChannels(ctx.db, q.id_sort)
      .select([...VIEW_COLUMNS, 'key'])
      .execute();
    const matches = (row: (typeof rows)[number]) => matchesSearch({ ...toChannelView(row), key: row.key }, q);
    const found = q.tag_mode ? searchTagMode(rows, matches) : rows.filter(matches);
    return ok(found.map(toChannelView));
  });

  app.get('/api/channel/models', admin, async () => ok(await listKnownModels(ctx)));

  app.get('/api/channel/models_enabled', admin, async () => ok(await listEnabledModels(ctx)));

  app.get('/api/models', admin, async () => ok(channelTypeModelMap()));

  app.get('/api/channel/:id', admin, async (req) => ok(toChannelView(await requireChannel(ctx, req.params))));

  app.post('/api/channel/', admin, async (req) =>
    ok(await createChannels(ctx, parseInput(channelCreateSchema, req.body))),
  );

  app.put('/api/channel/', admin, async (req) =>
    ok(await updateChannel(ctx, parseInput(channelUpdateSchema, req.body))),
  );

  app.post('/api/channel/copy/:id', admin, async (req) => {
    const q = parseInput(copyQuery, req.query);
    const id = await copyChannel(ctx, channelIdParam(req.params), {
      suffix: q.suffix,
      resetBalance: q.reset_balance,
    });
    return ok({ id });
  });

  app.delete('/api/channel/disabled', admin, async () => ok(await deleteDisabledChannels(ctx)));

  for (const url of ['/api/channel/:id', '/api/channel/:id/']) {
    app.delete(url, admin, async (req) => {
      await deleteChannel(ctx, channelIdParam(req.params));
      return ok(null);
    });
  }

  app.post('/api/channel/batch', admin, async (req) =>
    ok(await deleteChannels(ctx, parseInput(channelIdsSchema, req.body).ids)),
  );

  app.post('/api/channel/fix', admin, async () => ok(await rebuildAbilities(ctx)));

  await registerChannelActionRoutes(app, ctx);
}
