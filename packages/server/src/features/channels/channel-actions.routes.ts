// Channel actions (admin): tag-wide edits, tests, balance queries and the upstream model list.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { CHANNEL_STATUS, MSG, channelTagEditSchema, channelTagSchema } from '@sluice/shared';
import type { ChannelTestResult } from '@sluice/shared';
import type { AppContext } from '../../app-context.js';
import { ApiError, ok, parseInput } from '../../http/envelope.js';
import { updateAllBalances, updateChannelBalance } from './balance.js';
import { channelTestsSettled, startTestingAll, testChannel } from './channel-testing.js';
import { editTag, setTagStatus } from './channels.service.js';
import { fetchUpstreamModels } from './model-catalog.js';
import { admin, requireChannel } from './route-helpers.js';

const testQuery = z.object({ model: z.string().trim().optional() });

export async function registerChannelActionRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.post('/api/channel/tag/enabled', admin, async (req) =>
    ok(await setTagStatus(ctx, parseInput(channelTagSchema, req.body).tag, CHANNEL_STATUS.enabled)),
  );

  app.post('/api/channel/tag/disabled', admin, async (req) =>
    ok(await setTagStatus(ctx, parseInput(channelTagSchema, req.body).tag, CHANNEL_STATUS.manuallyDisabled)),
  );

  app.put('/api/channel/tag', admin, async (req) =>
    ok(await editTag(ctx, parseInput(channelTagEditSchema, req.body))),
  );

  app.get('/api/channel/test/:id', admin, async (req, reply) => {
    const channel = await requireChannel(ctx, req.params);
    const { model } = parseInput(testQuery, req.query);
    const result = await testChannel(ctx, channel, model ? { model } : {});
    const data: ChannelTestResult = { time: result.timeMs / 1000 };
    if (result.ok) return ok(data);
    // The upstream failed, not the request: 502, with the time still reported.
    return reply.status(502).send({ success: false, message: result.message || MSG.channelTestFailed, data });
  });

  app.get('/api/channel/test', admin, async () => {
    const started = startTestingAll(ctx, (error) =>
      app.log.error({ err: error }, 'testing all channels failed'),
    );
    if (!started) throw new ApiError(409, MSG.channelTestsRunning);
    return ok(null, MSG.channelTestsStarted);
  });

  for (const url of ['/api/channel/update_balance/:id', '/api/channel/update_balance/:id/']) {
    app.get(url, admin, async (req) =>
      ok(await updateChannelBalance(ctx, await requireChannel(ctx, req.params))),
    );
  }

  app.get('/api/channel/update_balance', admin, async () => ok(await updateAllBalances(ctx)));

  app.get('/api/channel/fetch_models/:id', admin, async (req) =>
    ok(await fetchUpstreamModels(await requireChannel(ctx, req.params))),
  );

  // A background test run must not outlive the database it writes to.
  app.addHook('onClose', async () => {
    await channelTestsSettled(ctx);
  });
}
