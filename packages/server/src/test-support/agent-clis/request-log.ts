// A pass-through HTTP proxy in front of Sluice that notes every request an agent CLI sends (method,
// path, query, status) so a test can tell which ones the relay served and which it refused.
import { createServer, request } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LoggedRequest {
  method: string;
  /** Path and query as the client sent them. */
  url: string;
  status: number;
  /** The client's user-agent, to tell which program sent a side call. */
  userAgent: string;
  /** What the body asked for, when it is JSON: the model, whether it streams, its output limit. */
  asked?: string;
  /** The start of the answer's body when the status is an error, to say why in a report. */
  errorBody?: string;
}

export interface RequestLog {
  /** Where clients should send their requests: http://127.0.0.1:<port>. */
  url: string;
  /** Requests answered so far, in the order their answers ended. */
  readonly requests: LoggedRequest[];
  close(): Promise<void>;
}

const ERROR_BODY_CHARS = 400;

const BODY_BYTES = 1 << 20;

/** `model=… stream=… max_tokens=…` from a JSON body, for telling the main call from side calls. */
function summarise(body: Buffer): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const fields = parsed as Record<string, unknown>;
  const config = (fields.generationConfig ?? {}) as Record<string, unknown>;
  const picked: Array<[string, unknown]> = [
    ['model', fields.model],
    ['stream', fields.stream],
    ['max_tokens', fields.max_tokens ?? fields.max_output_tokens ?? config.maxOutputTokens],
    ['tools', Array.isArray(fields.tools) ? fields.tools.length : undefined],
  ];
  return picked
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `${name}=${String(value)}`)
    .join(' ');
}

function forward(target: URL, log: LoggedRequest[], req: IncomingMessage, res: ServerResponse): void {
  const body: Buffer[] = [];
  let bodyBytes = 0;
  req.on('data', (chunk: Buffer) => {
    if (bodyBytes < BODY_BYTES) body.push(chunk);
    bodyBytes += chunk.length;
  });
  const upstream = request(
    {
      host: target.hostname,
      port: target.port,
      method: req.method,
      path: req.url,
      headers: req.headers,
    },
    (answer) => {
      const status = answer.statusCode ?? 0;
      res.writeHead(status, answer.rawHeaders);
      let errorBody = '';
      answer.on('data', (chunk: Buffer) => {
        if (status >= 400 && errorBody.length < ERROR_BODY_CHARS) errorBody += chunk.toString('utf8');
        res.write(chunk);
      });
      answer.on('end', () => {
        log.push({
          method: req.method ?? '',
          url: req.url ?? '',
          status,
          userAgent: String(req.headers['user-agent'] ?? ''),
          asked: summarise(Buffer.concat(body)),
          ...(status >= 400 ? { errorBody: errorBody.slice(0, ERROR_BODY_CHARS) } : {}),
        });
        res.end();
      });
    },
  );
  upstream.on('error', (error) => {
    log.push({
      method: req.method ?? '',
      url: req.url ?? '',
      status: 0,
      userAgent: '',
      errorBody: error.message,
    });
    res.destroy();
  });
  req.pipe(upstream);
}

/** Listens on 127.0.0.1 (a free port) and relays everything to `target`. */
export async function startRequestLog(target: string): Promise<RequestLog> {
  const requests: LoggedRequest[] = [];
  const base = new URL(target);
  const server: Server = createServer((req, res) => forward(base, requests, req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
