// Channel actions (admin): tag-wide and batch tag edits, tests, balance queries and upstream model lists.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  CHANNEL_STATUS,
  MSG,
  channelBatchTagSchema,
  channelFetchModelsSchema,
  channelTagEditSchema,
  channelTagSchema,
} from '@sluice/shared';
import type { ChannelTestResult } from '@sluice/shared';
import type { AppContext } from '../../app-context.js';
import { ApiError, badRequest, ok, parseInput } from '../../http/envelope.js';
import { updateAllBalances, updateChannelBalance } from './balance.js';
import { splitChannelKeys } from './channel-keys.js';
import { channelTestsSettled, startTestingAll, testChannel } from './channel-testing.js';
import { editTag, setChannelsTag, setTagStatus } from './channels.service.js';
import { fetchModelList, fetchUpstreamModels } from './model-catalog.js';
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

  app.post('/api/channel/batch/tag', admin, async (req) => {
    const { ids, tag } = parseInput(channelBatchTagSchema, req.body);
    return ok(await setChannelsTag(ctx, ids, tag));
  });

  // new-api's clients read `time` (seconds) and `balance` beside the envelope's fields; `data` keeps them too.
  app.get('/api/channel/test/:id', admin, async (req) => {
    const channel = await requireChannel(ctx, req.params);
    const { model } = parseInput(testQuery, req.query);
    const result = await testChannel(ctx, channel, model ? { model } : {});
    const data: ChannelTestResult = { time: result.timeMs / 1000 };
    // A failed upstream (or a type that cannot be tested) is a refusal with its redacted reason,
    // the time still reported.
    if (result.ok) return { ...ok(data), time: data.time };
    return { success: false, message: result.message || MSG.channelTestFailed, data, time: data.time };
  });

  app.get('/api/channel/test', admin, async () => {
    const started = startTestingAll(ctx, (error) =>
      app.log.error({ err: error }, 'testing all channels failed'),
    );
    if (!started) throw new ApiError(409, MSG.channelTestsRunning);
    return ok(null, MSG.channelTestsStarted);
  });

  for (const url of ['/api/channel/update_balance/:id', '/api/channel/update_balance/:id/']) {
    app.get(url, admin, async (req) => {
      const balance = await updateChannelBalance(ctx, await requireChannel(ctx, req.params));
      return { ...ok(balance), balance };
    });
  }

  app.get('/api/channel/update_balance', admin, async () => ok(await updateAllBalances(ctx)));

  // The list is `data`; `message` says how to use it when the vendor's list needs a word (Azure's
  // deployments, Vertex's Claude models).
  app.get('/api/channel/fetch_models/:id', admin, async (req) => {
    const { models, message } = await fetchUpstreamModels(ctx, await requireChannel(ctx, req.params));
    return ok(models, message);
  });

  // The create form's list: the channel is not stored yet, so the form sends what it has. The server
  // asks the upstream, which a browser could not (the upstream does not allow the console's origin).
  // The key field may hold several keys (one channel each): the first one is used.
  app.post('/api/channel/fetch_models', admin, async (req) => {
    const { type, base_url, key } = parseInput(channelFetchModelsSchema, req.body);
    const first = splitChannelKeys(type, key)[0];
    if (first === undefined) throw badRequest(MSG.channelKeyRequired);
    const { models, message } = await fetchModelList(ctx, { type, base_url, key: first });
    return ok(models, message);
  });

  // A background test run must not outlive the database it writes to.
  app.addHook('onClose', async () => {
    await channelTestsSettled(ctx);
  });
}
