// Reference declarations of the relay (relay.routes.ts, inbound/models, inbound/gemini, inbound/billing,
// tasks/), the probes (http/health.ts) and the metrics (http/metrics.routes.ts). Requests and answers are the vendors' own formats: each route links to its
// vendor's reference rather than describing them again.
import { z } from 'zod';
import type { RouteDoc, Vendor } from './route-doc.js';

const OPENAI = 'https://platform.openai.com/docs/api-reference';
const ANTHROPIC = 'https://docs.anthropic.com/en/api';
const GOOGLE = 'https://ai.google.dev/api';
const MIDJOURNEY_PROXY = 'https://github.com/novicezk/midjourney-proxy';
const SUNO_API = 'https://github.com/Suno-API/Suno-API';

const STREAMED = ['application/json', 'text/event-stream'] as const;

/** A POST relayed in a vendor's format, keyed by a Sluice token. */
const relayed = (
  path: string,
  tag: RouteDoc['tag'],
  vendor: Vendor,
  reference: string,
  summary: string,
  more: Partial<RouteDoc> & { streams?: boolean } = {},
): RouteDoc => {
  const { streams, ...rest } = more;
  return {
    method: 'POST',
    path,
    tag,
    auth: 'token',
    summary,
    answer: { kind: 'vendor', vendor, reference, ...(streams ? { contentTypes: STREAMED } : {}) },
    ...rest,
  };
};

const openAi = (path: string, reference: string, summary: string, more: Parameters<typeof relayed>[5] = {}) =>
  relayed(path, 'OpenAI format', 'OpenAI', `${OPENAI}/${reference}`, summary, more);

/** A Gemini method, served under /v1beta and, as Google serves them, /v1. */
const gemini = (
  method: string,
  reference: string,
  summary: string,
  more: Parameters<typeof relayed>[5] = {},
) =>
  relayed(`/v1beta/models/{model}:${method}`, 'Gemini format', 'Google', `${GOOGLE}/${reference}`, summary, {
    route: '/v1beta/models/*',
    aliases: [{ path: `/v1/models/{model}:${method}`, route: '/v1/models/*' }],
    params: { model: 'The model name, e.g. `gemini-2.5-flash`.' },
    ...more,
  });

/** midjourney-proxy's speed modes: every /mj route is served under these prefixes too. */
const MJ_PREFIXES = ['/fast', '/turbo', '/relax'] as const;

const mjSubmit = (path: string, summary: string): RouteDoc =>
  relayed(`/mj/${path}`, 'Midjourney', 'midjourney-proxy', MIDJOURNEY_PROXY, summary, {
    prefixes: MJ_PREFIXES,
    description:
      'Charged per call (the action’s model at its ModelPrice × group ratio) once the upstream takes it; refunded if the task fails.',
  });

const taskId = { id: "A task id (Sluice's own)." };

export const RELAY_DOCS: readonly RouteDoc[] = [
  // OpenAI format
  openAi('/v1/chat/completions', 'chat/create', 'Chat Completions', { streams: true }),
  openAi('/v1/completions', 'completions/create', 'Legacy completions', { streams: true }),
  openAi('/v1/responses', 'responses/create', 'Responses', {
    streams: true,
    description: '`previous_response_id` works on OpenAI and Azure channels only.',
  }),
  openAi('/v1/embeddings', 'embeddings/create', 'Embeddings'),
  openAi('/v1/images/generations', 'images/create', 'Image generation'),
  openAi('/v1/audio/speech', 'audio/createSpeech', 'Text to speech', {
    answer: {
      kind: 'vendor',
      vendor: 'OpenAI',
      reference: `${OPENAI}/audio/createSpeech`,
      description: 'The audio, in the content type the upstream answers.',
      contentTypes: ['audio/mpeg'],
    },
  }),
  openAi('/v1/audio/transcriptions', 'audio/createTranscription', 'Transcription', {
    bodyType: 'multipart/form-data',
  }),
  openAi('/v1/audio/translations', 'audio/createTranslation', 'Translation into English', {
    bodyType: 'multipart/form-data',
  }),
  openAi('/v1/moderations', 'moderations/create', 'Moderations'),
  relayed(
    '/v1/rerank',
    'OpenAI format',
    'Jina / Cohere',
    'https://docs.cohere.com/reference/rerank',
    'Rerank',
    {
      description: "Jina's and Cohere's request shape (`model`, `query`, `documents`, `top_n`).",
    },
  ),

  // Anthropic format
  relayed('/v1/messages', 'Anthropic format', 'Anthropic', `${ANTHROPIC}/messages`, 'Messages', {
    streams: true,
  }),
  relayed(
    '/v1/messages/count_tokens',
    'Anthropic format',
    'Anthropic',
    `${ANTHROPIC}/messages-count-tokens`,
    "Count a request's input tokens (free; Sluice's tokenizer)",
  ),

  // Gemini format
  gemini('generateContent', 'generate-content#method:-models.generatecontent', 'Generate content'),
  gemini(
    'streamGenerateContent',
    'generate-content#method:-models.streamgeneratecontent',
    'Generate content, streamed',
    {
      query: z.object({ alt: z.enum(['sse']).optional() }),
      notes: { alt: '`sse`: server-sent events; without it, one JSON array written as it grows.' },
      answer: {
        kind: 'vendor',
        vendor: 'Google',
        reference: `${GOOGLE}/generate-content#method:-models.streamgeneratecontent`,
        contentTypes: STREAMED,
      },
    },
  ),
  gemini(
    'countTokens',
    'tokens#method:-models.counttokens',
    "Count a request's tokens (free; Sluice's tokenizer)",
  ),
  gemini('embedContent', 'embeddings#method:-models.embedcontent', 'Embeddings (Gemini channels)'),
  gemini(
    'batchEmbedContents',
    'embeddings#method:-models.batchembedcontents',
    'Embeddings, batched (Gemini channels)',
  ),

  // Models
  {
    method: 'GET',
    path: '/v1/models',
    tag: 'Models',
    auth: 'token',
    summary: "The models the token may call, in its client's list shape",
    description:
      "OpenAI's list; Anthropic's for a caller sending `anthropic-version`, Google's for one sending `x-goog-api-key`.",
    answer: { kind: 'vendor', vendor: 'OpenAI', reference: `${OPENAI}/models/list` },
  },
  {
    method: 'GET',
    path: '/v1/models/{model}',
    route: '/v1/models/*',
    tag: 'Models',
    auth: 'token',
    summary: 'One model the token may call, in its client’s shape',
    params: { model: 'The model name (may contain slashes).' },
    answer: { kind: 'vendor', vendor: 'OpenAI', reference: `${OPENAI}/models/retrieve` },
  },
  {
    method: 'GET',
    path: '/v1beta/models',
    tag: 'Models',
    auth: 'token',
    summary: "The models the token may call, in Google's shape",
    answer: { kind: 'vendor', vendor: 'Google', reference: `${GOOGLE}/models#method:-models.list` },
  },
  {
    method: 'GET',
    path: '/v1beta/models/{model}',
    route: '/v1beta/models/*',
    tag: 'Models',
    auth: 'token',
    summary: "One model the token may call, in Google's shape",
    params: { model: 'The model name.' },
    answer: { kind: 'vendor', vendor: 'Google', reference: `${GOOGLE}/models#method:-models.get` },
  },

  // Key balance
  ...(['subscription', 'usage'] as const).map((what): RouteDoc => ({
    method: 'GET',
    path: `/dashboard/billing/${what}`,
    aliases: [`/v1/dashboard/billing/${what}`],
    tag: 'Key balance',
    auth: 'token',
    summary:
      what === 'subscription'
        ? "The key's limit: its token's remaining plus used quota (or, with DisplayTokenStatEnabled off, its user's)"
        : "The key's usage, in hundredths of the unit the site shows",
    description:
      'As new-api answers it: US dollars when DisplayInCurrencyEnabled is on, quota otherwise. An unlimited token reports 100,000,000.',
    answer: {
      kind: 'vendor',
      vendor: 'OpenAI',
      reference: 'https://platform.openai.com/docs/api-reference',
      description: `OpenAI's legacy ${what === 'subscription' ? '`billing_subscription` object' : 'usage list (`total_usage`)'}.`,
    },
  })),

  // Midjourney
  mjSubmit('submit/imagine', 'Draw a prompt'),
  mjSubmit('submit/change', 'Upscale, vary or reroll a drawing'),
  mjSubmit('submit/simple-change', 'The same, as `"<id> U1"`'),
  mjSubmit('submit/describe', 'Prompts for an image'),
  mjSubmit('submit/blend', 'Blend images'),
  mjSubmit('submit/action', "Press a drawing's button (`customId`)"),
  mjSubmit('submit/modal', 'Confirm an action that waits for input (inpaint, custom zoom)'),
  mjSubmit('submit/shorten', 'Shorten a prompt'),
  mjSubmit('submit/upload-discord-images', 'Upload images (answers their URLs)'),
  mjSubmit('insight-face/swap', 'Swap a face'),
  {
    method: 'GET',
    path: '/mj/task/{id}/fetch',
    prefixes: MJ_PREFIXES,
    tag: 'Midjourney',
    auth: 'token',
    summary: "A task of the caller's",
    params: taskId,
    answer: { kind: 'vendor', vendor: 'midjourney-proxy', reference: MIDJOURNEY_PROXY },
  },
  relayed(
    '/mj/task/list-by-condition',
    'Midjourney',
    'midjourney-proxy',
    MIDJOURNEY_PROXY,
    "The caller's tasks among `ids`",
    {
      prefixes: MJ_PREFIXES,
      body: z.object({ ids: z.array(z.string()).max(1000).optional() }),
    },
  ),
  {
    method: 'GET',
    path: '/mj/task/{id}/image-seed',
    prefixes: MJ_PREFIXES,
    tag: 'Midjourney',
    auth: 'token',
    summary: "A drawing's seed, asked of the channel that drew it (free)",
    params: taskId,
    answer: { kind: 'vendor', vendor: 'midjourney-proxy', reference: MIDJOURNEY_PROXY },
  },
  {
    method: 'GET',
    path: '/mj/image/{id}',
    prefixes: MJ_PREFIXES,
    tag: 'Midjourney',
    auth: 'public',
    summary: "A drawing's image, without a key",
    description: 'With MjForwardUrlEnabled, task answers show this address instead of the upstream’s.',
    params: taskId,
    answer: { kind: 'raw', contentType: 'image/png', description: 'The image (png, jpeg, gif or webp).' },
  },

  // Suno
  relayed(
    '/suno/submit/{action}',
    'Suno',
    'Suno API',
    SUNO_API,
    'Make a song (`music`) or write lyrics (`lyrics`)',
    {
      params: { action: '`music` or `lyrics`.' },
      description:
        'Charged per call (suno_music, suno_lyrics at their ModelPrice × group ratio) once the upstream takes it; refunded if the task fails.',
    },
  ),
  relayed('/suno/fetch', 'Suno', 'Suno API', SUNO_API, "The caller's tasks among `ids`", {
    body: z.object({ ids: z.array(z.string()).max(1000).nullish(), action: z.string().nullish() }),
  }),
  {
    method: 'GET',
    path: '/suno/fetch/{id}',
    tag: 'Suno',
    auth: 'token',
    summary: "A task of the caller's",
    params: taskId,
    answer: { kind: 'vendor', vendor: 'Suno API', reference: SUNO_API },
  },

  // Playground
  relayed(
    '/pg/chat/completions',
    'Playground',
    'OpenAI',
    `${OPENAI}/chat/create`,
    "The console's chat playground",
    {
      auth: 'user',
      streams: true,
      description:
        'A Chat Completions request with the console session instead of a token, billed to the user directly; `group` picks the group (default the user’s own). `max_tokens: 0` means no limit.',
    },
  ),

  // Probes
  {
    method: 'GET',
    path: '/healthz',
    tag: 'Probes and metrics',
    auth: 'public',
    summary: 'The process answers',
    answer: {
      kind: 'raw',
      contentType: 'application/json',
      schema: { type: 'object', properties: { status: { const: 'ok' } } },
      description: 'Always 200 while the process runs.',
    },
  },
  {
    method: 'GET',
    path: '/readyz',
    tag: 'Probes and metrics',
    auth: 'public',
    summary: 'The node can serve: the database (and Redis, when set) answers',
    answer: {
      kind: 'raw',
      contentType: 'application/json',
      schema: {
        type: 'object',
        properties: {
          status: { enum: ['ok', 'unavailable'] },
          database: { enum: ['ok', 'down'] },
          redis: { enum: ['ok', 'down', 'off'] },
        },
      },
      description: '200 when ready, else 503 naming what is down. Each check gives up after 2 seconds.',
    },
  },
  {
    method: 'GET',
    path: '/metrics',
    tag: 'Probes and metrics',
    auth: 'public',
    summary: "The node's metrics in Prometheus' text format",
    description:
      'With METRICS_TOKEN set, only a scraper sending `Authorization: Bearer <token>` is answered (401 otherwise); with METRICS_ENABLED=false the path answers 404. Each node reports its own numbers.',
    answer: {
      kind: 'raw',
      contentType: 'text/plain; version=0.0.4',
      description: 'The metrics (see docs/operations.md, "Metrics").',
    },
  },
];
