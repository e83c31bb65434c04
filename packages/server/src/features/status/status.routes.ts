// Public site information: /api/status and the site texts.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { ok } from '../../http/envelope.js';
import { publicStatus } from './public-status.js';

export function registerStatusRoutes(app: FastifyInstance, ctx: AppContext): void {
  const o = ctx.options;

  app.get('/api/status', { config: { auth: 'public' } }, async () => ok(publicStatus(ctx)));

  app.get('/api/notice', { config: { auth: 'public' } }, async () => ok(o.get('Notice')));
  app.get('/api/about', { config: { auth: 'public' } }, async () => ok(o.get('About')));
  app.get('/api/home_page_content', { config: { auth: 'public' } }, async () => ok(o.get('HomePageContent')));
}
