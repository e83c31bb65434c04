// The OpenAPI 3.1 document built from the route declarations (route-docs.ts): built once, the first
// time it is asked for, and served as it is at GET /api/openapi.json.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { Answer, DocAuth, HttpMethod, JsonSchema, RouteDoc, Shape } from './route-doc.js';
import { TAG_GROUPS } from './route-doc.js';
import { ROUTE_DOCS, documentedPaths } from './route-docs.js';
import { NAMED_TYPES } from './shared-types.js';

export interface OpenApiParameter {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  description?: string;
  schema: JsonSchema;
}

export interface OpenApiMedia {
  schema?: JsonSchema;
}

export type OpenApiResponse =
  { description: string; content?: Record<string, OpenApiMedia> } | { $ref: string };

export interface OpenApiOperation {
  operationId: string;
  tags: string[];
  summary: string;
  description?: string;
  parameters?: OpenApiParameter[];
  requestBody?: { required: boolean; content: Record<string, OpenApiMedia> };
  responses: Record<string, OpenApiResponse>;
  security: Array<Record<string, string[]>>;
  externalDocs?: { url: string; description: string };
  /** Who may call it: a console level, or `token` (a Sluice token key). */
  'x-auth': DocAuth;
  /** Counted by the sign-in rate limit. */
  'x-rate-limited'?: boolean;
  /** Set on the copies at an alias path: the operation they are served alike with. */
  'x-alias-of'?: string;
}

export type OperationKey = 'get' | 'post' | 'put' | 'delete';

export type OpenApiPathItem = { servers?: Array<{ url: string; description?: string }> } & Partial<
  Record<OperationKey, OpenApiOperation>
>;

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  tags: Array<{ name: string; description: string }>;
  'x-tagGroups': Array<{ name: string; tags: string[] }>;
  paths: Record<string, OpenApiPathItem>;
  components: {
    schemas: Record<string, JsonSchema>;
    responses: Record<string, OpenApiResponse>;
    securitySchemes: Record<string, JsonSchema>;
  };
}

const DESCRIPTION = `Sluice's console API and relay.

**Console API** (\`/api/…\`). Every answer is new-api's envelope \`{"success": bool, "message": string, "data": …}\`: a refusal (invalid input, not allowed, unknown id, conflict) is HTTP 200 with \`success: false\` and the reason in \`message\`; HTTP 401 means not signed in, 429 rate limited, 500 a bug. Signed-in routes take the session cookie a sign-in sets, with the header \`New-Api-User: <user id>\`, or a personal access token (GET /api/user/token) as \`Authorization: <token>\` (a \`Bearer \` prefix is accepted). Roles: 1 user, 10 admin, 100 super admin; a route open to a role is open to the roles above it. Routes marked *rate-limited* share CRITICAL_RATE_LIMIT requests per client address per CRITICAL_RATE_LIMIT_WINDOW_SECONDS.

**Relay** (\`/v1\`, \`/v1beta\`, \`/mj\`, \`/suno\`). Requests and answers are the vendors' own formats; each route links to its vendor's reference. The key is a Sluice token (\`sk-…\`) sent as \`Authorization: Bearer\`, \`x-api-key\`, \`x-goog-api-key\`, \`?key=\` or \`mj-api-secret\`; an admin's \`sk-<key>-<channel id>\` pins a channel. Errors come in the caller's format: OpenAI's \`{"error": {"message", "type", "code"}}\`, Anthropic's \`{"type": "error", "error": {…}}\` on /v1/messages, Google's \`{"error": {"code", "message", "status"}}\` on /v1beta, the proxies' own shapes on /mj and /suno. Statuses: 401 bad, expired or disabled key; 403 not allowed, or quota used up; 404 no channel serves the model in the caller's group; 429 rate limited; 501 an endpoint or channel type the relay does not serve; 503 channels exist but none can serve now. Other paths under /v1 and /v1beta answer 501, under /mj and /suno 404, in those formats; every relay path answers CORS preflights.`;

type Security = OpenApiOperation['security'];

const CONSOLE_SECURITY: Security = [{ session: [], newApiUser: [] }, { accessToken: [] }];
const TOKEN_SECURITY: Security = [
  { bearerKey: [] },
  { anthropicKey: [] },
  { googleKey: [] },
  { googleKeyQuery: [] },
  { midjourneySecret: [] },
];

const SECURITY_SCHEMES: Record<string, JsonSchema> = {
  session: {
    type: 'apiKey',
    in: 'cookie',
    name: 'session',
    description: 'The session cookie a sign-in sets; send New-Api-User with it.',
  },
  newApiUser: {
    type: 'apiKey',
    in: 'header',
    name: 'New-Api-User',
    description: "The signed-in user's id; a missing or different id is 401.",
  },
  accessToken: {
    type: 'apiKey',
    in: 'header',
    name: 'Authorization',
    description: 'A personal access token from GET /api/user/token (a `Bearer ` prefix is accepted).',
  },
  bearerKey: { type: 'http', scheme: 'bearer', description: 'A Sluice token key, `sk-…`.' },
  anthropicKey: { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'A Sluice token key.' },
  googleKey: { type: 'apiKey', in: 'header', name: 'x-goog-api-key', description: 'A Sluice token key.' },
  googleKeyQuery: { type: 'apiKey', in: 'query', name: 'key', description: 'A Sluice token key.' },
  midjourneySecret: {
    type: 'apiKey',
    in: 'header',
    name: 'mj-api-secret',
    description: 'A Sluice token key.',
  },
};

const envelopeOf = (data: JsonSchema, extra: Record<string, JsonSchema> = {}): JsonSchema => ({
  type: 'object',
  properties: { success: { type: 'boolean' }, message: { type: 'string' }, data, ...extra },
  required: ['success', 'message', 'data'],
});

const RESPONSES: Record<string, OpenApiResponse> = {
  NotSignedIn: {
    description: 'Not signed in, or the session, token or New-Api-User header is not valid.',
    content: { 'application/json': { schema: envelopeOf({ type: 'null' }) } },
  },
  RateLimited: {
    description: 'Too many requests from this address.',
    content: { 'application/json': { schema: envelopeOf({ type: 'null' }) } },
  },
};

const VENDOR_ERRORS: Record<string, string> = {
  OpenAI: 'An error in OpenAI\'s shape, `{"error": {"message", "type", "code"}}`.',
  'Jina / Cohere': 'An error in OpenAI\'s shape, `{"error": {"message", "type", "code"}}`.',
  Anthropic: 'An error in Anthropic\'s shape, `{"type": "error", "error": {"type", "message"}}`.',
  Google: 'An error in Google\'s shape, `{"error": {"code", "message", "status"}}`.',
  'midjourney-proxy':
    'A refusal in midjourney-proxy\'s shape, `{"code", "description", "result": null, "type"}`.',
  'Suno API': 'An error in the Suno API\'s shape, `{"code", "message", "data"}`.',
};

/** A zod schema as JSON Schema: what a client sends (`input`) or what the server answers (`output`). */
export function jsonSchemaOf(shape: Shape, io: 'input' | 'output'): JsonSchema {
  if (!(shape instanceof z.ZodType)) return shape;
  const { $schema: _dialect, ...schema } = z.toJSONSchema(shape, { io, unrepresentable: 'any' });
  return schema;
}

/** The `properties` of an object schema, or of each alternative of a oneOf. */
function objectsOf(schema: JsonSchema): JsonSchema[] {
  if (Array.isArray(schema.oneOf)) return schema.oneOf as JsonSchema[];
  return schema.type === 'object' ? [schema] : [];
}

/** The declaration's notes, as the descriptions of the fields they name. */
function withNotes(schema: JsonSchema, notes: Record<string, string> = {}): JsonSchema {
  const annotate = (object: JsonSchema): JsonSchema => {
    const properties = (object.properties ?? {}) as Record<string, JsonSchema>;
    return {
      ...object,
      properties: Object.fromEntries(
        Object.entries(properties).map(([name, field]) => {
          const note = notes[name];
          return [name, note ? { ...field, description: note } : field];
        }),
      ),
    };
  };
  if (Array.isArray(schema.oneOf)) return { ...schema, oneOf: (schema.oneOf as JsonSchema[]).map(annotate) };
  return schema.type === 'object' ? annotate(schema) : schema;
}

/** Lenient list numbers (list-page.ts) have no input type: any value that is not a whole number is ignored. */
const LENIENT_NUMBER: JsonSchema = {
  type: 'integer',
  description: 'A whole number; any other value is ignored.',
};

function queryParameters(doc: RouteDoc): OpenApiParameter[] {
  if (!doc.query) return [];
  const [object] = objectsOf(jsonSchemaOf(doc.query, 'input'));
  const properties = (object?.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((object?.required ?? []) as string[]);
  return Object.entries(properties).map(([name, schema]) => {
    const typed = Object.keys(schema).length === 0 ? LENIENT_NUMBER : schema;
    const description =
      doc.notes?.[name] ?? (typeof typed.description === 'string' ? typed.description : undefined);
    const { description: _d, ...rest } = typed;
    return {
      name,
      in: 'query',
      required: required.has(name),
      ...(description ? { description } : {}),
      schema: rest,
    };
  });
}

function pathParameters(doc: RouteDoc, path: string): OpenApiParameter[] {
  return [...path.matchAll(/\{([A-Za-z0-9_]+)\}/g)].map(([, name = '']) => {
    const description = doc.params?.[name];
    const numeric = name === 'id' && path.startsWith('/api/');
    return {
      name,
      in: 'path',
      required: true,
      ...(description ? { description } : {}),
      schema: numeric ? { type: 'integer', minimum: 1 } : { type: 'string' },
    };
  });
}

function requestBody(doc: RouteDoc): OpenApiOperation['requestBody'] {
  const contentType = doc.bodyType ?? 'application/json';
  if (doc.body) {
    return {
      required: true,
      content: { [contentType]: { schema: withNotes(jsonSchemaOf(doc.body, 'input'), doc.notes) } },
    };
  }
  if (doc.answer.kind === 'vendor' && doc.method === 'POST') {
    // The operation's externalDocs link the vendor's reference.
    const description = `A request as ${doc.answer.vendor} documents it.`;
    return {
      required: true,
      content: { [contentType]: { schema: { type: 'object', description } } },
    };
  }
  return doc.bodyType
    ? { required: false, content: { [contentType]: { schema: { type: 'object' } } } }
    : undefined;
}

function responses(doc: RouteDoc, answer: Answer): Record<string, OpenApiResponse> {
  // The console's own refusals come as envelopes; the relay answers its refusals in the vendor's shape.
  const refused: Record<string, OpenApiResponse> = {};
  if (answer.kind === 'envelope' && doc.auth !== 'public' && doc.auth !== 'token')
    refused['401'] = { $ref: '#/components/responses/NotSignedIn' };
  if (doc.rateLimited) refused['429'] = { $ref: '#/components/responses/RateLimited' };
  switch (answer.kind) {
    case 'envelope': {
      const extra = Object.fromEntries(
        Object.entries(answer.extra ?? {}).map(([name, shape]) => [name, jsonSchemaOf(shape, 'output')]),
      );
      const schema = envelopeOf(jsonSchemaOf(answer.data, 'output'), extra);
      return {
        '200': {
          description:
            'The envelope: `data` on success; `success: false` and the reason in `message` on a refusal.',
          content: { 'application/json': { schema } },
        },
        ...refused,
      };
    }
    case 'vendor': {
      const types = answer.contentTypes ?? ['application/json'];
      return {
        '200': {
          description: answer.description ?? `The answer as ${answer.vendor} documents it.`,
          content: Object.fromEntries(types.map((type) => [type, {}])),
        },
        ...refused,
        default: {
          description: VENDOR_ERRORS[answer.vendor] ?? 'An error in the caller’s format.',
          content: { 'application/json': {} },
        },
      };
    }
    case 'raw': {
      const media: OpenApiMedia = answer.schema ? { schema: jsonSchemaOf(answer.schema, 'output') } : {};
      return {
        '200': { description: answer.description, content: { [answer.contentType]: media } },
        ...refused,
      };
    }
  }
}

/** `DELETE /api/token/{id}/` → `delete_api_token_by_id_`: distinct for paths that differ by a slash. */
const operationId = (method: HttpMethod, path: string): string =>
  `${method.toLowerCase()}${path.replace(/\{([^}]+)\}/g, 'by_$1').replace(/[^A-Za-z0-9]+/g, '_')}`;

function operation(doc: RouteDoc, path: string, aliasOf?: string): OpenApiOperation {
  const parameters = [...pathParameters(doc, path), ...queryParameters(doc)];
  const body = requestBody(doc);
  const vendor = doc.answer.kind === 'vendor' ? doc.answer : undefined;
  return {
    operationId: operationId(doc.method, path),
    tags: [doc.tag],
    summary: doc.summary,
    ...(doc.description ? { description: doc.description } : {}),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(body ? { requestBody: body } : {}),
    responses: responses(doc, doc.answer),
    security: doc.auth === 'public' ? [] : doc.auth === 'token' ? TOKEN_SECURITY : CONSOLE_SECURITY,
    ...(vendor
      ? { externalDocs: { url: vendor.reference, description: `${vendor.vendor}'s reference` } }
      : {}),
    'x-auth': doc.auth,
    ...(doc.rateLimited ? { 'x-rate-limited': true } : {}),
    ...(aliasOf ? { 'x-alias-of': aliasOf } : {}),
  };
}

const SERVER_MANIFEST = z.object({ name: z.literal('@sluice/server'), version: z.string() });

/**
 * The server's version, from its package.json: the first one named @sluice/server above this module,
 * which sits deeper in src/ and in tsc's dist/ than in the bundled dist/sluice.js.
 */
function serverVersion(): string {
  for (const up of ['../', '../../', '../../../']) {
    let text: string;
    try {
      text = readFileSync(new URL(`${up}package.json`, import.meta.url), 'utf8');
    } catch {
      continue;
    }
    const manifest = SERVER_MANIFEST.safeParse(JSON.parse(text));
    if (manifest.success) return manifest.data.version;
  }
  throw new Error("the server's package.json was not found");
}

export function buildOpenApiDocument(docs: readonly RouteDoc[], version: string): OpenApiDocument {
  const paths: Record<string, OpenApiPathItem> = {};
  for (const doc of docs) {
    const [main = doc.path, ...aliases] = documentedPaths(doc);
    for (const path of [main, ...aliases]) {
      const item = (paths[path] ??= {});
      const key = doc.method.toLowerCase() as OperationKey;
      if (item[key]) throw new Error(`${doc.method} ${path} is declared twice`);
      item[key] = operation(doc, path, path === main ? undefined : `${doc.method} ${main}`);
      if (doc.prefixes) {
        item.servers = [
          { url: '/' },
          ...doc.prefixes.map((url) => ({ url, description: `${url.slice(1)} mode` })),
        ];
      }
    }
  }
  const groups = TAG_GROUPS.map((group) => ({ name: group.name, tags: group.tags.map((tag) => tag.name) }));
  return {
    openapi: '3.1.0',
    info: { title: 'Sluice API', version, description: DESCRIPTION },
    tags: TAG_GROUPS.flatMap((group) => group.tags.map((tag) => ({ ...tag }))),
    'x-tagGroups': groups,
    paths,
    components: {
      schemas: Object.fromEntries(
        Object.entries(NAMED_TYPES).map(([name, shape]) => [name, jsonSchemaOf(shape, 'output')]),
      ),
      responses: RESPONSES,
      securitySchemes: SECURITY_SCHEMES,
    },
  };
}

let built: OpenApiDocument | undefined;

/** Sluice's reference, built on first use and kept. */
export function apiDocument(): OpenApiDocument {
  built ??= buildOpenApiDocument(ROUTE_DOCS, serverVersion());
  return built;
}
