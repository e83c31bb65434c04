// A fake upstream on plain node:http speaking OpenAI, Anthropic Messages and Gemini (and playing the task
// servers midjourney-proxy and Suno): per-route auth, recording and fault injection (routing.ts picks the
// route). Kept framework-free and allocation-light because the benchmark uses it as its baseline.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { authenticate } from './auth.js';
import { Behaviours, type BehaviourScope, type QueueScope } from './behaviours.js';
import { directiveFromBody, DirectiveError, MARKER_START, type MockDirective } from './directive.js';
import {
  pause,
  resetConnection,
  sendError,
  type Exchange,
  type MockSettings,
  type RecordedRequest,
} from './exchange.js';
import { parseBody } from './routes/input.js';
import { DEFAULT_GEMINI_MODELS } from './routes/gemini-models.js';
import { DEFAULT_ANTHROPIC_MODELS } from './routes/anthropic.js';
import { DEFAULT_MODELS } from './routes/models.js';
import { awsKeyring, MOCK_AWS_CREDENTIALS, type AwsCredentials } from './bedrock-auth.js';
import { MidjourneyUpstream, MOCK_MIDJOURNEY_SECRET } from './routes/midjourney.js';
import { MOCK_SUNO_KEY, SunoUpstream } from './routes/suno.js';
import type { MockTask, TaskOutcome } from './routes/task-life.js';
import { findRoute, type TaskUpstreams } from './routing.js';
import { sendFault, sendGoogleError, sendVendorError } from './vendor-errors.js';
import { VertexAccounts, type VertexServiceAccount } from './vertex-auth.js';

export interface MockUpstreamOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Listed by GET /v1/models. */
  models?: string[];
  /** Listed by Gemini's GET /v1beta/models (ids without "models/"). */
  geminiModels?: string[];
  /** Listed by Anthropic's GET /v1/models (a request with `anthropic-version`), most recent first. */
  anthropicModels?: string[];
  /** Figures of the legacy billing endpoints (defaults: limit $100, used $12.34). */
  billing?: Partial<MockSettings['billing']>;
  /** Keep every request in `requests` (default true; the benchmark turns it off). */
  record?: boolean;
  /** A standing directive for every request, as `setBehaviour(directive)`. */
  behaviour?: MockDirective;
  /** The AWS access keys whose SigV4 signatures the Bedrock routes accept (default MOCK_AWS_CREDENTIALS). */
  bedrockCredentials?: AwsCredentials[];
  /** The `mj-api-secret` values midjourney-proxy accepts (default [MOCK_MIDJOURNEY_SECRET]; [] lets anyone in). */
  midjourneySecrets?: string[];
  /** The bearer keys the Suno API server accepts (default [MOCK_SUNO_KEY]; [] lets anyone in). */
  sunoKeys?: string[];
}

/** A change to a task's scripted life after its submit; it applies from the task's next read. */
export interface TaskLifeChange {
  outcome?: TaskOutcome;
  /** Reads (counted from its submit) after which the task ends. */
  steps?: number;
  failReason?: string;
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
  setGeminiModels(models: string[]): void;
  setAnthropicModels(models: string[]): void;
  setBilling(billing: Partial<MockSettings['billing']>): void;
  /**
   * Registers a Vertex service account: the token endpoint (POST /token) verifies its JWTs with
   * `publicKeyPem` and issues tokens that may call `projectId`. Accounts and the tokens issued are
   * kept across reset(), as a relay keeps its cached tokens across tests.
   */
  setVertexServiceAccount(account: VertexServiceAccount): void;
  /** midjourney-proxy and Suno tasks by id, as they stand (emptied by reset()). */
  readonly tasks: ReadonlyMap<string, MockTask>;
  /** Changes how an unfinished task ends (throws for an unknown or finished task). */
  setTaskOutcome(id: string, change: TaskLifeChange): void;
  /** Forgets recorded requests, queued directives and tasks; behaviours, models and billing go back to the options. */
  reset(): void;
  /** Stops listening and drops open connections. */
  close(): Promise<void>;
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
  const vertex = new VertexAccounts();
  const initialSettings = (): MockSettings => ({
    models: [...(options.models ?? DEFAULT_MODELS)],
    geminiModels: [...(options.geminiModels ?? DEFAULT_GEMINI_MODELS)],
    anthropicModels: [...(options.anthropicModels ?? DEFAULT_ANTHROPIC_MODELS)],
    billing: { hardLimitUsd: 100, usedUsd: 12.34, ...options.billing },
    vertex,
    awsKeys: awsKeyring(options.bedrockCredentials ?? [MOCK_AWS_CREDENTIALS]),
  });
  const settings = initialSettings();
  const tasks: TaskUpstreams = {
    midjourney: new MidjourneyUpstream([...(options.midjourneySecrets ?? [MOCK_MIDJOURNEY_SECRET])]),
    suno: new SunoUpstream([...(options.sunoKeys ?? [MOCK_SUNO_KEY])]),
  };
  const restart = (): void => {
    behaviours.clear();
    tasks.midjourney.reset();
    tasks.suno.reset();
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
      dialect: 'openai',
      arrayErrors: false,
      baseUrl,
      seq,
      settings,
    };

    const route = findRoute(method, path, query, req.headers, tasks);
    if (!route) {
      if (!path.startsWith('/v1beta/')) {
        return sendError(ex, 404, `Unknown request URL: ${method} ${path}.`, 'invalid_request_error');
      }
      ex.dialect = 'gemini';
      return sendGoogleError(ex, 404, `Method not found: ${method} ${path}.`);
    }
    ex.dialect = route.dialect;
    ex.arrayErrors = route.arrayErrors;
    const auth = route.verify
      ? await route.verify(ex, raw)
      : authenticate(route.auth, req.headers, query, settings);
    if (!auth.ok) return auth.refuse(ex);
    const key = auth.key;
    if (!parsed.ok) {
      if (route.errors) return route.errors.invalid(ex, 400, parsed.reason);
      const gemini = route.dialect === 'gemini';
      return sendVendorError(
        ex,
        400,
        gemini ? 'Invalid JSON payload received. Unexpected token.' : parsed.reason,
      );
    }
    try {
      const fromBody = raw.includes(MARKER_START) ? directiveFromBody(parsed.body) : undefined;
      ex.directive = { ...behaviours.take(path, key), ...fromBody };
    } catch (error) {
      if (!(error instanceof DirectiveError)) throw error;
      const message = `Invalid mock directive: ${error.message}.`;
      if (route.errors) return route.errors.invalid(ex, 400, message);
      return sendVendorError(ex, 400, message);
    }
    entry.directive = ex.directive;
    const { delay_ms: delay, reset, status } = ex.directive;
    if (delay !== undefined && !(await pause(ex, delay))) return;
    if (reset) return resetConnection(ex);
    if (status !== undefined) return route.errors ? route.errors.fault(ex, status) : sendFault(ex, status);
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
    setGeminiModels: (models) => {
      settings.geminiModels = [...models];
    },
    setAnthropicModels: (models) => {
      settings.anthropicModels = [...models];
    },
    setBilling: (billing) => {
      settings.billing = { ...settings.billing, ...billing };
    },
    setVertexServiceAccount: (account) => vertex.register(account),
    get tasks() {
      return new Map<string, MockTask>([...tasks.midjourney.book.tasks, ...tasks.suno.book.tasks]);
    },
    setTaskOutcome: (id, change) => {
      const task = tasks.midjourney.book.get(id) ?? tasks.suno.book.get(id);
      if (!task) throw new Error(`no task ${id}`);
      if (task.finished) throw new Error(`task ${id} has already finished (${task.status})`);
      task.setLife(change);
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
