// buildApp(deps): the whole HTTP application, without globals and without listening.
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import helmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import Fastify, { LogController } from 'fastify';
import type { Redis } from 'ioredis';
import type { FastifyError, FastifyInstance, FastifyRequest, FastifyServerOptions } from 'fastify';
import { LOOK_COOKIE, MSG, USER_STATUS, lookOf } from '@sluice/shared';
import type { AppContext, Endpoints } from './app-context.js';
import { DEFAULT_ENDPOINTS } from './app-context.js';
import type { Config } from './config.js';
import type { Db } from './db/create-db.js';
import { createSessionStore } from './features/auth/session-store.js';
import { createVerificationCodes } from './features/auth/verification-codes.js';
import { createOptionStore } from './features/options/option-store.js';
import { ensureRootUser } from './features/users/root-user.js';
import { publicStatus } from './features/status/public-status.js';
import { registerFeatures } from './features/index.js';
import { registerApiReference } from './http/api-reference/api-reference.routes.js';
import { registerAuthGuard, sessionOf } from './http/auth-guard.js';
import { registerHealthRoutes } from './http/health.js';
import { registerMetricsRoutes } from './http/metrics.routes.js';
import { ApiError, envelopeStatus, refuseNulBytes } from './http/envelope.js';
import { lazyRequestLogger } from './http/request-logger.js';
import { securityHeaders } from './http/security-headers.js';
import { createFirstPaints } from './http/first-paints.js';
import type { FirstPaintUser, FirstPaints } from './http/first-paints.js';
import { registerRelayRoutes } from './relay/relay.routes.js';
import type { CacheBus } from './platform/cache-bus.js';
import { createMemoryCacheBus } from './platform/cache-bus.js';
import type { Clock } from './platform/clock.js';
import { systemClock } from './platform/clock.js';
import type { Mailer } from './platform/mailer.js';
import { createMetrics } from './platform/metrics.js';
import { createSmtpMailer } from './platform/mailer.js';
import { createScheduler } from './platform/scheduler.js';

export interface AppDeps {
  config: Config;
  db: Db;
  clock?: Clock;
  bus?: CacheBus;
  mailer?: Mailer;
  endpoints?: Partial<Endpoints>;
  /** Cluster mode: shares rate-limit counters and holds between nodes. */
  redis?: Redis;
  /** Fastify logger options; false in tests. */
  logger?: FastifyServerOptions['logger'];
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
}

/** A request id a client may choose: it is logged, stored and sent upstream, so a short plain token only. */
const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** The client's x-request-id when it is a plain token (at most 64 of A-Z a-z 0-9 . _ -), else a new id. */
export const requestIdFrom = (header: string | string[] | undefined): string =>
  typeof header === 'string' && REQUEST_ID.test(header) ? header : randomUUID();

const isApiPath = (url: string) => url === '/api' || url.startsWith('/api/');
const isRelayPath = (url: string) => /^\/(v1|v1beta|pg|mj|suno)(\/|$)/.test(url);

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config } = deps;
  const clock = deps.clock ?? systemClock;
  const bus = deps.bus ?? createMemoryCacheBus();
  const options = await createOptionStore(deps.db.db, deps.db.dialect, bus);
  const app = Fastify({
    logger: deps.logger ?? false,
    // Forwarded headers only from the operator's own proxies (TRUSTED_PROXIES); nobody's by default.
    trustProxy: config.trustedProxies.length > 0 ? config.trustedProxies : false,
    bodyLimit: 64 * 1024 * 1024,
    // A client's x-request-id is kept only when it is a plain token; otherwise the call gets its own.
    requestIdHeader: false,
    genReqId: (req) => requestIdFrom(req.headers['x-request-id']),
    // Fastify's access logs would cost the relay's hot path: relay calls log one line of their own
    // when they end (relay.routes.ts); errors are still logged.
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: lazyRequestLogger,
  });
  const ctx: AppContext = {
    ...(deps.redis ? { redis: deps.redis } : {}),
    config,
    db: deps.db.db,
    dialect: deps.db.dialect,
    sqliteFile: deps.db.sqliteFile,
    clock,
    startedAt: clock.now(),
    bus,
    options,
    sessions: createSessionStore(deps.db.db, clock, config.sessionTtlSeconds),
    codes: createVerificationCodes(deps.db.db, clock),
    mailer: deps.mailer ?? createSmtpMailer(options),
    endpoints: { ...DEFAULT_ENDPOINTS, ...deps.endpoints },
    scheduler: createScheduler({ db: deps.db.db, clock, log: app.log }),
    metrics: createMetrics({
      enabled: config.metrics.enabled,
      knownModel: (model) =>
        Object.hasOwn(options.get('ModelRatio'), model) || Object.hasOwn(options.get('ModelPrice'), model),
      ...(deps.db.poolStats ? { poolStats: deps.db.poolStats } : {}),
    }),
  };
  app.decorate('ctx', ctx);
  app.addHook('onClose', async () => ctx.scheduler.stop());

  app.addHook('onRequest', (req, reply, done) => {
    reply.header('x-request-id', req.id);
    done();
  });

  await app.register(cookie, { secret: config.sessionSecret });
  await app.register(rateLimit, {
    global: false,
    ...(deps.redis ? { redis: deps.redis, nameSpace: `${config.redisPrefix}ratelimit:` } : {}),
    errorResponseBuilder: () => new ApiError(429, MSG.tooManyRequests),
  });

  // The console API's contract (new-api's): a refusal is HTTP 200 with success false and the reason;
  // only "not signed in" (401), rate limits (429) and bugs (500) change the HTTP status. The relay
  // routes have their own handler and keep real statuses.
  app.setErrorHandler((error: FastifyError | ApiError, req, reply) => {
    if (error instanceof ApiError) {
      return reply
        .status(envelopeStatus(error.status))
        .send({ success: false, message: error.message, data: null });
    }
    const status = error.statusCode ?? 500;
    if (status === 429)
      return reply.status(429).send({ success: false, message: MSG.tooManyRequests, data: null });
    if (status >= 400 && status < 500) {
      const message =
        error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ? 'the request body is not valid JSON' : error.message;
      return reply.status(envelopeStatus(status)).send({ success: false, message, data: null });
    }
    req.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ success: false, message: MSG.serverError, data: null });
  });

  registerAuthGuard(app, { db: ctx.db, sessions: ctx.sessions });
  registerHealthRoutes(app, ctx, deps.redis);
  registerMetricsRoutes(app, ctx);
  // The console, its API and its 404s in one scope with the security headers; the relay outside it.
  await app.register(async (site) => {
    await site.register(helmet, securityHeaders(ctx));
    // No database keeps a NUL in text (PostgreSQL refuses it): such input never reaches a handler.
    site.addHook('preValidation', async (req) => refuseNulBytes(req));
    await registerFeatures(site, ctx);
    registerApiReference(site);
    await registerConsole(site, ctx);
  });
  await registerRelayRoutes(app, ctx);
  await ensureRootUser(ctx, app.log);

  return app;
}

/** The built console's files, and the 404 answer for every path (in the caller's format). */
async function registerConsole(site: FastifyInstance, ctx: AppContext): Promise<void> {
  const webDist = ctx.config.webDist;
  const indexFile = join(webDist, 'index.html');
  const hasConsole = existsSync(indexFile);
  let firstPaints: FirstPaints | undefined;
  let indexHtml = '';
  if (hasConsole) {
    indexHtml = readFileSync(indexFile, 'utf8');
    await site.register(fastifyStatic, { root: webDist, wildcard: false, index: false });
    // The first-paint renderer is built beside the console (packages/web/dist-first-paint).
    const rendererFile = join(`${webDist}-first-paint`, 'first-paint-renderer.js');
    firstPaints = createFirstPaints({
      indexHtml,
      rendererFile: existsSync(rendererFile) ? rendererFile : null,
      readStylesheet: (href) => {
        const file = join(webDist, href);
        return existsSync(file) ? readFileSync(file, 'utf8') : null;
      },
      status: () => publicStatus(ctx),
      onStatusChange: (listener) => ctx.options.onChange(listener),
      log: site.log,
    });
    const painter = firstPaints;
    site.addHook('onClose', async () => painter.close());
  }

  site.setNotFoundHandler(async (req, reply) => {
    const path = req.url.split('?')[0] ?? '';
    if (isApiPath(path)) {
      return reply.status(404).send({ success: false, message: MSG.notFound, data: null });
    }
    if (isRelayPath(path)) {
      return reply.status(404).send({
        error: {
          message: `Invalid URL (${req.method} ${path})`,
          type: 'invalid_request_error',
          code: 'not_found',
        },
      });
    }
    if (firstPaints && (req.method === 'GET' || req.method === 'HEAD')) {
      // Client-side routes: the console decides what to show; the page may come with its first paint.
      const user = firstPaints.active ? await firstPaintUser(req, ctx) : undefined;
      const html =
        user === undefined ? indexHtml : firstPaints.page(path, lookOf(req.cookies[LOOK_COOKIE]), user);
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-cache')
        .header('vary', 'cookie')
        .send(html);
    }
    return reply.status(404).type('text/plain').send('Not Found');
  });
}

/**
 * The signed-in user a first paint shows (null for a visitor), or undefined when the page gets none:
 * an account that must first change its password sees only that dialog.
 */
async function firstPaintUser(
  req: FastifyRequest,
  ctx: AppContext,
): Promise<FirstPaintUser | null | undefined> {
  const session = await sessionOf(req, ctx.sessions);
  if (!session) return null;
  const user = await ctx.db
    .selectFrom('users')
    .select(['id', 'username', 'display_name', 'role', 'status', 'password_change_required'])
    .where('id', '=', session.userId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!user || user.status !== USER_STATUS.enabled) return null;
  if (user.password_change_required === 1) return undefined;
  return { id: user.id, name: user.display_name || user.username, role: user.role };
}
