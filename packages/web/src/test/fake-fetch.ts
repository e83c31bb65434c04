// A fetch stand-in for component tests: answers by method and path, records every call.
import { vi } from 'vitest';

export interface FakeAnswer {
  status?: number;
  body: unknown;
}

export type FakeRoute = FakeAnswer | ((request: Request) => FakeAnswer | Promise<FakeAnswer>);

export interface RecordedCall {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Headers;
  body: unknown;
}

export const ok = (data: unknown, message = ''): FakeAnswer => ({ body: { success: true, message, data } });
export const failure = (status: number, message: string): FakeAnswer => ({
  status,
  body: { success: false, message, data: null },
});

/** Installs a fetch that serves `routes` ("GET /api/status" → answer); unknown routes answer 404. */
export function installFetch(routes: Record<string, FakeRoute>): RecordedCall[] {
  const calls: RecordedCall[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://console.test');
      const method = (init?.method ?? 'GET').toUpperCase();
      const headers = new Headers(init?.headers);
      const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
      calls.push({ method, path: url.pathname, query: url.searchParams, headers, body });
      const route = routes[`${method} ${url.pathname}`];
      const answer = !route
        ? failure(404, 'the requested resource does not exist')
        : typeof route === 'function'
          ? await route(new Request(url, init))
          : route;
      return new Response(JSON.stringify(answer.body), {
        status: answer.status ?? 200,
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
  return calls;
}
