// The API reference against the app: every route the app registers (the console's route table and the
// relay's routes) has a declaration and is in the OpenAPI document, every declaration names a route
// the app serves at the level it declares, the document has OpenAPI 3.1's shape, GET /api/openapi.json
// serves it to anyone, and docs/api.md is what the document renders to.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRelayRoutes } from '../../test-support/relay-coverage.js';
import type { RelayRoute } from '../../test-support/relay-coverage.js';
import { createTestApp } from '../../test-support/test-app.js';
import type { TestApp } from '../../test-support/test-app.js';
import { API_MARKDOWN_FILE } from '../../tools/api-docs.js';
import { renderApiMarkdown } from './markdown.js';
import { apiDocument } from './openapi.js';
import type { OpenApiDocument, OpenApiOperation, OperationKey } from './openapi.js';
import { ROUTE_DOCS, documentedPaths, registeredRoutes } from './route-docs.js';

/**
 * Routes that answer paths the relay does not serve (501 or 404 in the caller's format), not
 * endpoints of their own; the document's description says so.
 */
const CATCH_ALLS = new Set([
  '/v1/*',
  '/v1beta/*',
  '/mj/*',
  '/fast/mj/*',
  '/turbo/mj/*',
  '/relax/mj/*',
  '/suno/*',
]);

const METHODS: readonly OperationKey[] = ['get', 'post', 'put', 'delete'];

function operations(
  doc: OpenApiDocument,
): Array<{ path: string; method: OperationKey; op: OpenApiOperation }> {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    METHODS.flatMap((method) => {
      const op = item[method];
      return op ? [{ path, method, op }] : [];
    }),
  );
}

/** Every `$ref` anywhere in a value. */
function refsIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(refsIn);
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, v]) =>
    key === '$ref' && typeof v === 'string' ? [v] : refsIn(v),
  );
}

/** `#/components/schemas/TokenView` → the value it points at in `doc`. */
function resolve(doc: OpenApiDocument, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let at: unknown = doc;
  for (const part of ref.slice(2).split('/')) {
    at = typeof at === 'object' && at !== null ? (at as Record<string, unknown>)[part] : undefined;
  }
  return at;
}

describe('the API reference', () => {
  let t: TestApp;
  let relayRoutes: RelayRoute[];
  const doc = apiDocument();

  beforeAll(async () => {
    t = await createTestApp();
    relayRoutes = await readRelayRoutes(t);
  });
  afterAll(async () => t?.close());

  it('is an OpenAPI 3.1 document', () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info.title).not.toBe('');
    expect(doc.info.version).toMatch(/^\d+\.\d+\.\d+/);
    const ops = operations(doc);
    expect(ops.length).toBeGreaterThan(100);
    const ids = ops.map(({ op }) => op.operationId);
    expect(new Set(ids).size, 'operationIds are unique').toBe(ids.length);
    const tags = new Set(doc.tags.map((tag) => tag.name));
    expect(doc['x-tagGroups'].flatMap((group) => group.tags).sort()).toEqual([...tags].sort());
    const schemes = new Set(Object.keys(doc.components.securitySchemes));
    for (const { path, method, op } of ops) {
      const where = `${method.toUpperCase()} ${path}`;
      expect(path, where).toMatch(/^\//);
      expect(Object.keys(op.responses).length, `${where} has responses`).toBeGreaterThan(0);
      for (const response of Object.values(op.responses)) {
        expect(
          '$ref' in response || response.description !== '',
          `${where}: every response is described`,
        ).toBe(true);
      }
      expect(
        op.tags.every((tag) => tags.has(tag)),
        `${where}: its tag is listed`,
      ).toBe(true);
      for (const requirement of op.security) {
        for (const scheme of Object.keys(requirement))
          expect(schemes.has(scheme), `${where}: ${scheme}`).toBe(true);
      }
      // Each {name} of the path is a required path parameter, and only those.
      const inPath = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      const declared = (op.parameters ?? []).filter((p) => p.in === 'path');
      expect(
        declared.map((p) => p.name),
        where,
      ).toEqual(inPath);
      expect(
        declared.every((p) => p.required),
        where,
      ).toBe(true);
    }
    for (const ref of refsIn(doc)) expect(resolve(doc, ref), `${ref} resolves`).toBeDefined();
  });

  it('declares every route the app registers', () => {
    const declared = new Set(ROUTE_DOCS.flatMap(registeredRoutes));
    const registered = [...t.app.routeTable, ...relayRoutes]
      .filter((r) => r.method !== 'HEAD' && r.method !== 'OPTIONS' && !CATCH_ALLS.has(r.url))
      .map((r) => `${r.method} ${r.url}`);
    expect(registered.filter((route) => !declared.has(route))).toEqual([]);
  });

  it('declares only routes the app serves, at the level the route enforces', () => {
    const levels = new Map(t.app.routeTable.map((r) => [`${r.method} ${r.url}`, r.auth]));
    for (const routeDoc of ROUTE_DOCS) {
      for (const route of registeredRoutes(routeDoc)) {
        const [method = '', url = ''] = route.split(' ');
        expect(t.app.hasRoute({ method: method as 'GET', url }), `${route} is served`).toBe(true);
        if (url.startsWith('/api/')) expect(levels.get(route), route).toBe(routeDoc.auth);
      }
    }
  });

  it('has every declared route in the document, under its prefixes too', () => {
    for (const routeDoc of ROUTE_DOCS) {
      for (const path of documentedPaths(routeDoc)) {
        const item = doc.paths[path];
        const op = item?.[routeDoc.method.toLowerCase() as OperationKey];
        expect(op?.summary, `${routeDoc.method} ${path}`).toBe(routeDoc.summary);
        expect(op?.['x-auth']).toBe(routeDoc.auth);
        const servers = (item?.servers ?? []).map((s) => s.url);
        for (const prefix of routeDoc.prefixes ?? []) expect(servers, path).toContain(prefix);
      }
    }
  });

  it('describes request fields with the limits the server enforces', async () => {
    const create = doc.paths['/api/token/']?.post?.requestBody?.content['application/json']?.schema;
    expect(create).toMatchObject({ type: 'object', required: ['name'] });
    const properties = (create?.properties ?? {}) as Record<string, { maxLength?: number }>;
    const longest = properties.name?.maxLength;
    if (longest === undefined) throw new Error('the token name has no documented maximum length');
    const user = await t.createUser();
    const createToken = (name: string) =>
      t.call({ method: 'POST', url: '/api/token/', as: user, payload: { name } }).then((res) => res.json());
    expect(await createToken('n'.repeat(longest))).toMatchObject({ success: true });
    expect(await createToken('n'.repeat(longest + 1))).toMatchObject({ success: false });

    const page = (doc.paths['/api/log/']?.get?.parameters ?? []).find((p) => p.name === 'p');
    expect(page).toMatchObject({ in: 'query', required: false, schema: { type: 'integer' } });
    const chat = doc.paths['/v1/chat/completions']?.post;
    expect(chat?.externalDocs?.url).toMatch(/^https:\/\/platform\.openai\.com\//);
    expect(chat?.responses['200']).toMatchObject({ content: { 'text/event-stream': {} } });
  });

  it('is served at GET /api/openapi.json without a session', async () => {
    const res = await t.call({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toEqual(JSON.parse(JSON.stringify(doc)));
  });

  it('is rendered in docs/api.md, which is up to date (npm run docs:api writes it)', () => {
    const markdown = renderApiMarkdown(doc);
    expect(readFileSync(API_MARKDOWN_FILE, 'utf8'), 'docs/api.md is stale: run npm run docs:api').toBe(
      markdown,
    );
    // Every operation has its section, naming its parameters and body fields.
    const sections = new Map(
      markdown
        .split('\n#### ')
        .slice(1)
        .map((section) => [section.slice(0, section.indexOf('\n')), section]),
    );
    for (const { path, method, op } of operations(doc)) {
      if (op['x-alias-of']) {
        const [, main = ''] = op['x-alias-of'].split(' ');
        expect(sections.get(`\`${method.toUpperCase()} ${main}\``), path).toContain(`at \`${path}\``);
        continue;
      }
      const section = sections.get(`\`${method.toUpperCase()} ${path}\``);
      expect(section, `${method.toUpperCase()} ${path} has a section`).toBeDefined();
      for (const p of op.parameters ?? [])
        expect(section, `${path}: ${p.name}`).toContain(`| \`${p.name}\` |`);
      const schema = Object.values(op.requestBody?.content ?? {})[0]?.schema ?? {};
      const objects = Array.isArray(schema.oneOf)
        ? (schema.oneOf as Array<Record<string, unknown>>)
        : [schema];
      for (const object of objects) {
        for (const field of Object.keys((object.properties ?? {}) as object)) {
          expect(section, `${path}: body field ${field}`).toContain(`| \`${field}\` |`);
        }
      }
    }
  });
});
