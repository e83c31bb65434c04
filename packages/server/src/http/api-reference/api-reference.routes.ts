// GET /api/openapi.json: the API reference as an OpenAPI 3.1 document, public. Built when the app is,
// so a declaration that cannot be turned into the document stops the start rather than a request.
import type { FastifyInstance } from 'fastify';
import { apiDocument } from './openapi.js';

export function registerApiReference(app: FastifyInstance): void {
  const body = JSON.stringify(apiDocument());
  app.get('/api/openapi.json', { config: { auth: 'public' } }, async (_req, reply) =>
    reply.type('application/json; charset=utf-8').send(body),
  );
}
