// What a route declares about itself for the API reference: method, path, who may call it, a summary,
// the zod schemas of its query and body, and what it answers. openapi.ts turns the declarations into
// the OpenAPI document; api-reference.test.ts holds them to the routes the app registers.
import type { z } from 'zod';
import type { AuthLevel } from '../auth-guard.js';

/** A JSON Schema (draft 2020-12, as OpenAPI 3.1 takes it). */
export type JsonSchema = { [keyword: string]: unknown };

/** A payload described by a zod schema (converted) or by a JSON Schema written out. */
export type Shape = z.ZodType | JsonSchema;

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** The console's levels, or a Sluice token key (the relay). */
export type DocAuth = AuthLevel | 'token';

/** The formats whose own references describe the relay's requests and answers. */
export type Vendor = 'OpenAI' | 'Anthropic' | 'Google' | 'Jina / Cohere' | 'midjourney-proxy' | 'Suno API';

/** A console answer: new-api's envelope `{success, message, data}`. */
export interface EnvelopeAnswer {
  kind: 'envelope';
  data: Shape;
  /** Fields answered beside success, message and data (new-api's clients read them there). */
  extra?: Record<string, Shape>;
}

/** A relay answer in a vendor's format, which the vendor's reference describes. */
export interface VendorAnswer {
  kind: 'vendor';
  vendor: Vendor;
  /** The vendor's reference for this call. */
  reference: string;
  /** What the answer is, when it is more than "the vendor's answer". */
  description?: string;
  /** The content types of a successful answer; application/json when absent. */
  contentTypes?: readonly string[];
}

/** Any other answer: a document, a probe, plain text, an image. */
export interface RawAnswer {
  kind: 'raw';
  contentType: string;
  schema?: Shape;
  description: string;
}

export type Answer = EnvelopeAnswer | VendorAnswer | RawAnswer;

/** Another path served alike: a spelling with or without the trailing slash, Google's /v1 paths. */
export type Alias = string | { path: string; route: string };

export interface RouteDoc {
  method: HttpMethod;
  /** The path as OpenAPI writes it: `/api/token/{id}`. */
  path: string;
  /** The path as registered, when it is not `path` with `{name}` written `:name` (wildcard routes). */
  route?: string;
  aliases?: readonly Alias[];
  /** Prefixes under which the route is served too (midjourney-proxy's speed modes). */
  prefixes?: readonly string[];
  tag: Tag;
  auth: DocAuth;
  /** Counted by the sign-in rate limit (CRITICAL_RATE_LIMIT per client address). */
  rateLimited?: boolean;
  summary: string;
  description?: string;
  /** Path parameters by name: what each one is. */
  params?: Record<string, string>;
  query?: z.ZodType;
  body?: Shape;
  /** application/json when absent. */
  bodyType?: string;
  /** What a query or body field means, by name, where its schema does not say. */
  notes?: Record<string, string>;
  answer: Answer;
}

/** The reference's sections, in the order it lists them, grouped as the document's x-tagGroups. */
export const TAG_GROUPS = [
  {
    name: 'Console API',
    tags: [
      { name: 'Site', description: 'Public site information, and this reference.' },
      { name: 'Sign-in', description: 'Password and third-party sign-in, registration, email codes.' },
      { name: 'Own account', description: "The caller's own profile, settings, invitations and groups." },
      { name: 'Top-up', description: 'Redemption codes and online payment.' },
      { name: 'Users', description: 'User management (admins).' },
      { name: 'Tokens', description: "The caller's API tokens (keys for the relay)." },
      { name: 'Channels', description: 'Upstream channels (admins).' },
      { name: 'Redemption codes', description: 'Redemption codes (admins).' },
      { name: 'Logs and usage', description: 'Usage logs, their statistics, the dashboard and pricing.' },
      { name: 'Drawings and tasks', description: 'Midjourney drawings and asynchronous tasks.' },
      { name: 'Settings', description: 'Site settings (super admin) and groups.' },
      {
        name: 'Reconciliation',
        description: 'Balances checked against the logs between snapshots (super admin).',
      },
    ],
  },
  {
    name: 'Relay',
    tags: [
      { name: 'OpenAI format', description: 'OpenAI-compatible endpoints.' },
      { name: 'Anthropic format', description: 'Anthropic Messages.' },
      { name: 'Gemini format', description: 'Google Gemini API paths.' },
      { name: 'Models', description: "The models the caller's token may use." },
      {
        name: 'Key balance',
        description: "OpenAI's legacy billing endpoints, which chat front-ends poll for a key's balance.",
      },
      { name: 'Midjourney', description: 'The midjourney-proxy API.' },
      { name: 'Suno', description: 'The Suno API.' },
      { name: 'Playground', description: "The console's chat playground." },
    ],
  },
  {
    name: 'Operations',
    tags: [
      {
        name: 'Probes and metrics',
        description: 'Health and readiness probes for load balancers; metrics for Prometheus.',
      },
    ],
  },
] as const;

export type Tag = (typeof TAG_GROUPS)[number]['tags'][number]['name'];

// ----- Shapes the declarations share -----

export const nothing: JsonSchema = { type: 'null' };
export const text: JsonSchema = { type: 'string' };
export const count: JsonSchema = { type: 'integer', minimum: 0 };
export const textList: JsonSchema = { type: 'array', items: { type: 'string' } };
export const arrayOf = (items: JsonSchema): JsonSchema => ({ type: 'array', items });

/** new-api's page object. */
export const pageOf = (items: JsonSchema): JsonSchema => ({
  type: 'object',
  title: 'Page',
  properties: {
    items: arrayOf(items),
    page: { type: 'integer' },
    page_size: { type: 'integer' },
    total: { type: 'integer' },
  },
  required: ['items', 'page', 'page_size', 'total'],
});

/** The lists of two client generations: a plain array, or the page object when `page_size` is sent. */
export const listOf = (items: JsonSchema): JsonSchema => ({
  oneOf: [arrayOf(items), pageOf(items)],
  description: 'A plain array; with `page_size`, the page object.',
});

export const envelope = (data: Shape, extra?: Record<string, Shape>): EnvelopeAnswer =>
  extra ? { kind: 'envelope', data, extra } : { kind: 'envelope', data };
