// A tiny real HTTP server on 127.0.0.1:0 for faking outside services in tests.
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  /** The raw body text. */
  body: string;
  /** The body parsed as a form (application/x-www-form-urlencoded) or JSON object of strings. */
  fields: Record<string, string>;
}

export interface FakeAnswer {
  status?: number;
  json: unknown;
}

export type FakeHandler = (req: FakeRequest) => FakeAnswer | Promise<FakeAnswer>;

export interface FakeServer {
  /** Base URL, e.g. http://127.0.0.1:41234 */
  url: string;
  /** Every request received, oldest first. */
  requests: FakeRequest[];
  close(): Promise<void>;
}

function fieldsOf(contentType: string | undefined, body: string): Record<string, string> {
  if (body === '') return {};
  if (contentType?.includes('application/json')) {
    const parsed: unknown = JSON.parse(body);
    const out: Record<string, string> = {};
    if (parsed && typeof parsed === 'object') {
      for (const [k, v] of Object.entries(parsed)) out[k] = String(v);
    }
    return out;
  }
  return Object.fromEntries(new URLSearchParams(body));
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startFakeServer(handler: FakeHandler): Promise<FakeServer> {
  const requests: FakeRequest[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      let answer: FakeAnswer;
      try {
        const url = new URL(req.url ?? '/', 'http://fake');
        const body = await readBody(req);
        const fakeReq: FakeRequest = {
          method: req.method ?? 'GET',
          path: url.pathname,
          query: url.searchParams,
          headers: req.headers,
          body,
          fields: fieldsOf(req.headers['content-type'], body),
        };
        requests.push(fakeReq);
        answer = await handler(fakeReq);
      } catch (error) {
        answer = { status: 500, json: { error: String(error) } };
      }
      res.writeHead(answer.status ?? 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer.json));
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** HTTP basic credentials from an Authorization header, or null. */
export function basicCredentials(header: string | undefined): { user: string; pass: string } | null {
  const match = /^Basic\s+(.+)$/i.exec(header ?? '');
  if (!match?.[1]) return null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  return { user: decoded.slice(0, colon), pass: decoded.slice(colon + 1) };
}
