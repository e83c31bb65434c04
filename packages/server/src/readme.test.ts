// The README's promises about the relay, held to the code: its table of channel types says what the
// adapter registry and the task platforms serve and which chat clients reach each type, every client
// endpoint it lists is served (while every fixed relay path is listed), and its task endpoints are
// exactly the task routes the relay registers.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE } from '@sluice/shared';
import { addChannel, addToken } from './test-support/relay-kit.js';
import type { TestToken } from './test-support/relay-kit.js';
import { readRelayRoutes, servedTypes } from './test-support/relay-coverage.js';
import type { RelayRoute } from './test-support/relay-coverage.js';
import { createTestApp } from './test-support/test-app.js';
import type { TestApp } from './test-support/test-app.js';

const README = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
const TYPES_HEADER = '| Type | Vendor | Endpoints | Chat clients that reach it |';
const ENDPOINTS_HEADER = '| Endpoint | Format |';
const TASK_ENDPOINTS_HEADER = '| Task endpoint | API |';
/** Paths of the task APIs (the speed-mode prefixes of /mj are checked apart). */
const TASK_PATH = /^\/(mj|suno)\//;
const MJ_MODES = ['fast', 'turbo', 'relax'];

/** The rows of the markdown table under `header`, each as its trimmed cells. */
function tableRows(header: string): string[][] {
  const lines = README.split('\n');
  const start = lines.findIndex((line) => line.trim() === header);
  if (start < 0) throw new Error(`the README has no table headed ${header}`);
  const rows: string[][] = [];
  // Past the header and its |---| line, until the table ends.
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .slice(1, -1)
        .split('|')
        .map((cell) => cell.trim()),
    );
  }
  return rows;
}

const SAMPLE_MODEL = 'readme-model';

/** `POST /v1beta/models/{model}:generateContent` → method and a path to call. */
function endpointOf(cell: string): { method: string; path: string } {
  const match = /^`(GET|POST) (\/\S+)`$/.exec(cell);
  if (!match?.[1] || !match[2]) throw new Error(`not an endpoint cell: ${cell}`);
  return { method: match[1], path: match[2] };
}

describe('the README', () => {
  let t: TestApp;
  let routes: RelayRoute[];
  let token: TestToken;

  beforeAll(async () => {
    t = await createTestApp();
    routes = await readRelayRoutes(t);
    const owner = await t.createUser({ role: ROLE.admin, quota: 1_000_000 });
    token = await addToken(t, owner.id);
    // A model some channel lists, so paths naming it reach their handler (the upstream is never called:
    // the bodies sent are empty).
    await addChannel(t, { base_url: 'http://127.0.0.1:9', models: SAMPLE_MODEL });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('lists each channel type the relay serves, with its endpoints and the chat clients that reach it', () => {
    const expected = servedTypes(routes).map(
      (s) => `| ${s.type} | ${s.vendor} | ${s.endpoints.join(', ')} | ${s.chatClients.join(', ') || '—'} |`,
    );
    const written = tableRows(TYPES_HEADER).map((cells) => `| ${cells.join(' | ')} |`);
    // On a failure, the expected rows are the lines to write.
    expect(written).toEqual(expected);
  });

  it('lists every fixed path of the relay', () => {
    const listed = new Set(
      tableRows(ENDPOINTS_HEADER).map(([cell = '']) => {
        const { method, path } = endpointOf(cell);
        return `${method} ${path}`;
      }),
    );
    const fixed = routes
      .filter((r) => /^\/v1(beta)?\//.test(r.url) && !/[*:]/.test(r.url))
      .filter((r) => r.method === 'GET' || r.method === 'POST')
      .map((r) => `${r.method} ${r.url}`);
    expect(fixed.filter((route) => !listed.has(route))).toEqual([]);
  });

  it('lists exactly the task routes the relay registers, each /mj one under every speed mode too', () => {
    // `/mj/task/:id/fetch` and `/suno/submit/:action` as patterns the listed paths must match.
    const pattern = (url: string) => new RegExp(`^${url.replace(/:[^/]+/g, '[^/]+')}$`);
    const registered = routes
      .filter((r) => TASK_PATH.test(r.url) && !r.url.includes('*'))
      .filter((r) => r.method === 'GET' || r.method === 'POST');
    const listed = tableRows(TASK_ENDPOINTS_HEADER).map(([cell = '']) => {
      const { method, path } = endpointOf(cell);
      return { method, path: path.replace(/\{[^}]+\}/g, 'x') };
    });
    const matches = (l: { method: string; path: string }, r: RelayRoute) =>
      l.method === r.method && pattern(r.url).test(l.path);
    expect(listed.filter((l) => !registered.some((r) => matches(l, r)))).toEqual([]);
    expect(
      registered.filter((r) => !listed.some((l) => matches(l, r))).map((r) => `${r.method} ${r.url}`),
    ).toEqual([]);
    const all = new Set(routes.map((r) => `${r.method} ${r.url}`));
    const missing = registered
      .filter((r) => r.url.startsWith('/mj/'))
      .flatMap((r) => MJ_MODES.map((mode) => `${r.method} /${mode}${r.url}`))
      .filter((route) => !all.has(route));
    expect(missing).toEqual([]);
  });

  it('lists only endpoints the relay serves', async () => {
    const refused: string[] = [];
    for (const [cell = ''] of tableRows(ENDPOINTS_HEADER)) {
      const { method, path } = endpointOf(cell);
      const res = await t.call({
        method: method as 'GET' | 'POST',
        url: path.replaceAll('{model}', SAMPLE_MODEL),
        headers: { authorization: `Bearer ${token.key}` },
        ...(method === 'POST' ? { payload: {} } : {}),
      });
      // A served endpoint answers, or refuses the empty body (400); an unserved one answers 404 or 501
      // (and a broken one 500).
      const served = res.statusCode < 500 && res.statusCode !== 404 && res.statusCode !== 405;
      if (!served) refused.push(`${cell}: ${res.statusCode} ${res.body}`);
    }
    expect(refused).toEqual([]);
  });
});
