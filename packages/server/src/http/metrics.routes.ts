// GET /metrics: the app's metrics in Prometheus' text format (platform/metrics.ts). With
// METRICS_TOKEN set, only a scraper that sends it as a bearer token is answered (401 otherwise);
// with METRICS_ENABLED=false the path is a plain 404 — never the console's page.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../app-context.js';

const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

/** Whether the request carries the token, compared in constant time. */
function hasToken(req: FastifyRequest, expected: Buffer): boolean {
  const header = req.headers.authorization ?? '';
  const match = /^Bearer\s+(.+)$/i.exec(header.trim());
  return match?.[1] !== undefined && timingSafeEqual(digest(match[1]), expected);
}

export function registerMetricsRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { token } = ctx.config.metrics;
  const expected = token === '' ? undefined : digest(token);
  app.get('/metrics', async (req, reply) => {
    reply.header('cache-control', 'no-store');
    if (!ctx.metrics.enabled) return reply.status(404).type('text/plain').send('Not Found');
    if (expected && !hasToken(req, expected)) {
      return reply
        .status(401)
        .header('www-authenticate', 'Bearer realm="metrics"')
        .type('text/plain')
        .send('Unauthorized');
    }
    const { contentType, body } = await ctx.metrics.render();
    return reply.type(contentType).send(body);
  });
}
