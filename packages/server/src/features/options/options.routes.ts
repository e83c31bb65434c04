// Site settings (super admin) and the group list.
import type { FastifyInstance } from 'fastify';
import { MSG, updateOptionSchema } from '@sluice/shared';
import type { AppContext } from '../../app-context.js';
import { ok, parseInput } from '../../http/envelope.js';
import { groupNames, listOptions, resetModelRatios, updateOption } from './options.service.js';

export async function registerOptionRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.get('/api/option/', { config: { auth: 'root' } }, async () => ok(listOptions(ctx.options)));

  app.put('/api/option/', { config: { auth: 'root' } }, async (req) => {
    const { key, value } = parseInput(updateOptionSchema, req.body);
    await updateOption(ctx, key, value);
    return ok(null);
  });

  // The misspelt path is the one existing consoles call.
  app.post('/api/option/rest_model_ratio', { config: { auth: 'root' } }, async () => {
    await resetModelRatios(ctx);
    return ok(null, MSG.modelRatiosReset);
  });

  app.get('/api/group/', { config: { auth: 'admin' } }, async () => ok(groupNames(ctx.options)));
}
