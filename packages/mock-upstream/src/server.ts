// A fake OpenAI-compatible upstream on plain node:http: routing, auth, recording and fault injection.
// Kept framework-free and allocation-light because the benchmark uses it as its baseline.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Behaviours, type BehaviourScope, type QueueScope } from './behaviours.js';
import { directiveFromBody, DirectiveError, MARKER_START, type MockDirective } from './directive.js';
import {
  pause,
  resetConnection,
  sendError,
  sendStatusFault,
  type Exchange,
  type MockSettings,
  type RecordedRequest,
} from './exchange.js';
import { handleSpeech, handleTranscriptions, handleTranslations } from './routes/audio.js';
import { handleChatCompletions, handleCompletions } from './routes/chat.js';
import { handleEmbeddings } from './routes/embeddings.js';
import { handleImageFile, handleImageGenerations, IMAGE_PATH } from './routes/images.js';
import { parseBody } from './routes/input.js';
import {
  DEFAULT_MODELS,
  handleBillingSubscription,
  handleBillingUsage,
  handleModel,
  handleModels,
} from './routes/models.js';
import { handleModerations } from './routes/moderations.js';
import { handleRerank } from './routes/rerank.js';

export interface MockUpstreamOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Listed by GET /v1/models. */
  models?: string[];
  /** Figures of the legacy billing endpoints (defaults: limit $100, used $12.34). */
  billing?: Partial<MockSettings['billing']>;
  /** Keep every request in `requests` (default true; the benchmark turns it off). */
  record?: boolean;
  /** A standing directive for every request, as `setBehaviour(directive)`. */
  behaviour?: MockDirective;
}

export interface MockUpstream {
  /** Base URL without a path, e.g. http://127.0.0.1:41234 (routes are under /v1). */
  url: string;
  port: number;
  /** Requests received, oldest first (emptied by reset()). */
  readonly requests: RecordedRequest[];
  /** The most recent request, optionally the most recent one to `path`. */
  lastRequest(path?: string): RecordedRequest | undefined;
  /** A standing directive for a scope (all requests when omitted); null removes it. */
  setBehaviour(directive: MockDirective | null, scope?: BehaviourScope): void;
  /** A directive for the next matching request(s), before any standing one. */
  enqueue(directive: MockDirective, scope?: QueueScope): void;
  /** Queued directives not yet used. */
  readonly pendingQueued: number;
  /** TCP connections accepted since start or reset(): tells whether a client reuses keep-alive sockets. */
  readonly connectionCount: number;
  setModels(models: string[]): void;
  setBilling(billing: Partial<MockSettings['billing']>): void;
  /** Forgets recorded requests and queued directives; behaviours, models and billing go back to the options. */
  reset(): void;
  /** Stops listening and drops open connections. */
  close(): Promise<void>;
}

type Handler = (ex: Exchange) => void | Promise<void>;
interface Route {
  handler: Handler;
  auth: boolean;
}

const ROUTES = new Map<string, Handler>([
  ['POST /v1/chat/completions', handleChatCompletions],
  ['POST /v1/completions', handleCompletions],
  ['POST /v1/embeddings', handleEmbeddings],
  ['POST /v1/images/generations', handleImageGenerations],
  ['POST /v1/audio/speech', handleSpeech],
  ['POST /v1/audio/transcriptions', handleTranscriptions],
  ['POST /v1/audio/translations', handleTranslations],
  ['POST /v1/moderations', handleModerations],
  ['POST /v1/rerank', handleRerank],
  ['GET /v1/models', handleModels],
  ['GET /v1/dashboard/billing/subscription', handleBillingSubscription],
  ['GET /v1/dashboard/billing/usage', handleBillingUsage],
]);

function findRoute(method: string, path: string): Route | undefined {
  const handler = ROUTES.get(`${method} ${path}`);
  if (handler) return { handler, auth: true };
  if (method === 'GET' && path.startsWith('/v1/models/')) {
    const id = decodeURIComponent(path.slice('/v1/models/'.length));
    return { handler: (ex) => handleModel(ex, id), auth: true };
  }
  if (method === 'GET' && path === IMAGE_PATH) return { handler: handleImageFile, auth: false };
  return undefined;
}

function bearerKey(header: string | undefined): string | undefined {
  if (header === undefined || !/^bearer /i.test(header)) return undefined;
  const key = header.slice(7).trim();
  return key === '' ? undefined : key;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)));
    req.on('error', reject);
    req.on('close', () => {
      if (!req.complete) reject(new Error('the client closed the connection before sending its body'));
    });
  });
}

function splitUrl(url: string): { path: string; query: Record<string, string> } {
  const mark = url.indexOf('?');
  if (mark < 0) return { path: url, query: {} };
  return { path: url.slice(0, mark), query: Object.fromEntries(new URLSearchParams(url.slice(mark + 1))) };
}

export async function startMockUpstream(options: MockUpstreamOptions = {}): Promise<MockUpstream> {
  const record = options.record ?? true;
  const behaviours = new Behaviours();
  const initialSettings = (): MockSettings => ({
    models: [...(options.models ?? DEFAULT_MODELS)],
    billing: { hardLimitUsd: 100, usedUsd: 12.34, ...options.billing },
  });
  const settings = initialSettings();
  const restart = (): void => {
    behaviours.clear();
    if (options.behaviour) behaviours.set(options.behaviour);
    Object.assign(settings, initialSettings());
  };
  restart();
  const requests: RecordedRequest[] = [];
  let seq = 0;
  let connections = 0;
  let baseUrl = '';

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const { path, query } = splitUrl(req.url ?? '/');
    const raw = await readBody(req);
    const parsed = await parseBody(raw, req.headers['content-type']);
    const entry: RecordedRequest = {
      method,
      path,
      query,
      headers: req.headers,
      body: parsed.ok ? parsed.body : raw.toString('utf8'),
      directive: {},
      status: undefined,
      outcome: 'pending',
      events: 0,
    };
    if (record) requests.push(entry);
    res.on('finish', () => {
      if (entry.outcome === 'pending') entry.outcome = 'completed';
    });
    res.on('close', () => {
      if (entry.outcome === 'pending') entry.outcome = 'client-closed';
    });
    seq += 1;
    const ex: Exchange = {
      req,
      res,
      body: parsed.ok ? parsed.body : undefined,
      directive: {},
      record: entry,
      baseUrl,
      seq,
      settings,
    };

    const route = findRoute(method, path);
    if (!route) return sendError(ex, 404, `Unknown request URL: ${method} ${path}.`, 'invalid_request_error');
    const key = bearerKey(req.headers.authorization);
    if (route.auth && key === undefined) {
      return sendError(ex, 401, 'No API key provided: send it as "Authorization: Bearer <key>".');
    }
    if (route.auth && key?.startsWith('bad')) {
      return sendError(ex, 401, 'Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key');
    }
    if (!parsed.ok) return sendError(ex, 400, parsed.reason);
    try {
      const fromBody = raw.includes(MARKER_START) ? directiveFromBody(parsed.body) : undefined;
      ex.directive = { ...behaviours.take(path, key), ...fromBody };
    } catch (error) {
      if (!(error instanceof DirectiveError)) throw error;
      return sendError(ex, 400, `Invalid mock directive: ${error.message}.`, 'invalid_request_error');
    }
    entry.directive = ex.directive;
    const { delay_ms: delay, reset, status } = ex.directive;
    if (delay !== undefined && !(await pause(ex, delay))) return;
    if (reset) return resetConnection(ex);
    if (status !== undefined) return sendStatusFault(ex, status);
    await route.handler(ex);
  }

  const server = createServer((req, res) => {
    serve(req, res).catch((error: unknown) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          error: { message: `Mock upstream failed: ${String(error)}`, type: 'server_error' },
        }),
      );
    });
  });
  server.on('connection', () => {
    connections += 1;
  });
  // Longer than a client's idle timeout, so the client, not the mock, closes idle keep-alive sockets.
  server.keepAliveTimeout = 65_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  baseUrl = `http://${address.address}:${address.port}`;

  return {
    url: baseUrl,
    port: address.port,
    requests,
    lastRequest: (path) => {
      for (let i = requests.length - 1; i >= 0; i--) {
        const request = requests[i];
        if (request && (path === undefined || request.path === path)) return request;
      }
      return undefined;
    },
    setBehaviour: (directive, scope) => behaviours.set(directive, scope),
    enqueue: (directive, scope) => behaviours.enqueue(directive, scope),
    get pendingQueued() {
      return behaviours.pending;
    },
    get connectionCount() {
      return connections;
    },
    setModels: (models) => {
      settings.models = [...models];
    },
    setBilling: (billing) => {
      settings.billing = { ...settings.billing, ...billing };
    },
    reset: () => {
      requests.length = 0;
      connections = 0;
      restart();
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
