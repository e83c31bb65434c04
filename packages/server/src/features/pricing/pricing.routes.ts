// GET /api/pricing: public; priced for the signed-in user's group, or the default group for visitors.
import type { FastifyInstance } from 'fastify';
import { DEFAULT_GROUP } from '@sluice/shared';
import type { AppContext } from '../../app-context.js';
import { pricingFor } from './pricing.service.js';

export function registerPricingRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/api/pricing', { config: { auth: 'public' } }, async (req) => {
    const answer = await pricingFor(ctx, req.user?.group || DEFAULT_GROUP);
    return { success: true, message: '', ...answer };
  });
}
