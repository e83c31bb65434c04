// OpenAI-compatible upstream calls: base URL + the endpoint's path, Bearer key, optional organization.
// The client's bytes go out unchanged unless a field has to change (mapped model, stream usage).
import type { IrRequest, RelayMode, UpstreamRequest } from '../../ir/request.js';
import type { ChatRequest } from '../../ir/chat.js';
import { encodeOpenAiChatRequest } from '../../wire/openai/request.js';
import type { ChannelTarget } from '../types.js';
import { replaceFormField } from './multipart.js';
import { responsesBody } from './responses.js';
import { isRecord } from '../../wire/json.js';

export const OPENAI_PATHS: Record<RelayMode, string> = {
  chat: '/v1/chat/completions',
  completions: '/v1/completions',
  embeddings: '/v1/embeddings',
  images: '/v1/images/generations',
  speech: '/v1/audio/speech',
  transcriptions: '/v1/audio/transcriptions',
  translations: '/v1/audio/translations',
  moderations: '/v1/moderations',
  rerank: '/v1/rerank',
};

export interface OpenAiOptions {
  defaultBaseUrl: string;
  /** Whether the vendor accepts stream_options.include_usage (some reject unknown fields). */
  askStreamUsage: boolean;
  /**
   * The field an output limit of our own is written in when the client set none: OpenAI's reasoning
   * models refuse max_tokens, while other vendors know only max_tokens (Mistral refuses unknown fields).
   */
  limitField: 'max_tokens' | 'max_completion_tokens';
  /** The vendor serves the Responses API at /v1/responses (OpenAI itself; most compatible vendors do not). */
  speaksResponses: boolean;
  /**
   * Where a call to one of OpenAI's paths (`OPENAI_PATHS`, `/v1/responses`) goes, for a vendor that
   * serves the API under URLs of its own (Azure: per-deployment paths with an api-version). Default:
   * the channel's base URL (or `defaultBaseUrl`) + the path.
   */
  url?: (channel: ChannelTarget, path: string, upstreamModel: string) => string;
  /** How the key travels: OpenAI's `Authorization: Bearer` (default) or Azure's `api-key` header. */
  keyHeader?: 'api-key';
}

export const joinUrl = (base: string, path: string): string => `${base.replace(/\/+$/, '')}${path}`;

const isJsonSpace = (byte: number | undefined) =>
  byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;

/**
 * `{"field":value,…` (each of `fields`, given as JSON text) followed by the client's bytes after their
 * opening brace: adding our output limit or the stream usage request to a body that names neither costs
 * a copy instead of a parse and a stringify, whatever the body's size (calls without max_tokens and
 * streams without stream_options are the common case). Null when the bytes do not allow it: not an
 * object, an empty one, or one that already has one of the fields (even as null, which would then win
 * as the later key).
 */
function withLeadingFields(
  raw: Buffer,
  body: Record<string, unknown>,
  fields: ReadonlyArray<readonly [string, string]>,
): Buffer | null {
  let head = '{';
  for (const [field, json] of fields) {
    if (Object.hasOwn(body, field)) return null;
    head += `"${field}":${json},`;
  }
  let open = 0;
  while (isJsonSpace(raw[open])) open++;
  if (raw[open] !== 0x7b) return null;
  let next = open + 1;
  while (isJsonSpace(raw[next])) next++;
  if (raw[next] === 0x7d || next >= raw.length) return null;
  return Buffer.concat([Buffer.from(head), raw.subarray(open + 1)]);
}

/** What a stream must ask for so its usage comes (and is billed exactly). */
const STREAM_USAGE: readonly [string, string] = ['stream_options', '{"include_usage":true}'];

/** The body to send: the client's own bytes when nothing needs rewriting. */
export function openaiBody(
  ir: IrRequest,
  upstreamModel: string,
  askStreamUsage = true,
  limitField: OpenAiOptions['limitField'] = 'max_tokens',
): Buffer | string {
  const needsUsage = askStreamUsage && ir.stream && !ir.clientWantsUsage;
  const renamed = upstreamModel !== ir.model;
  const capped = ir.outputLimit !== undefined;
  if (!renamed && ir.raw) {
    if (!capped && !needsUsage) return ir.raw;
    // A limit the client set is lowered in place, which the bytes cannot do: re-encoded below.
    if (!capped || (ir.body.max_completion_tokens == null && ir.body.max_tokens == null)) {
      const fields: Array<readonly [string, string]> = [];
      if (capped) fields.push([ir.mode === 'chat' ? limitField : 'max_tokens', String(ir.outputLimit)]);
      if (needsUsage) fields.push(STREAM_USAGE);
      const spliced = withLeadingFields(ir.raw, ir.body, fields);
      if (spliced) return spliced;
    }
  }
  // Copied onto an empty object rather than spread: a field added to a spread copy gets a hidden
  // class of its own on every call (see docs/relay-design.md, "One shape per object").
  const body: Record<string, unknown> = Object.assign({}, ir.body);
  body.model = upstreamModel;
  if (ir.outputLimit !== undefined) {
    // Each limit the client set is lowered under its own name; a request with neither gets the
    // vendor's own field (limitField). Legacy completions know only max_tokens.
    const completionLimit = body.max_completion_tokens != null;
    const tokensLimit = body.max_tokens != null;
    if (completionLimit) body.max_completion_tokens = ir.outputLimit;
    if (tokensLimit) body.max_tokens = ir.outputLimit;
    if (!completionLimit && !tokensLimit) {
      body[ir.mode === 'chat' ? limitField : 'max_tokens'] = ir.outputLimit;
    }
  }
  if (needsUsage) {
    // Ask for the usage event so billing is exact; it is stripped again for clients that did not ask.
    const given = isRecord(ir.body.stream_options) ? ir.body.stream_options : {};
    body.stream_options = Object.assign({}, given, { include_usage: true });
  }
  return JSON.stringify(body);
}

/** What each mode answers with: speech is audio, transcripts may be plain text, subtitles or JSON. */
function acceptFor(ir: IrRequest): string {
  if (ir.stream) return 'text/event-stream';
  return ir.mode === 'speech' || ir.mode === 'transcriptions' || ir.mode === 'translations'
    ? '*/*'
    : 'application/json';
}

/** A multipart upload goes out as it came; only a mapped model is written into its model field. */
function uploadBody(ir: IrRequest, upstreamModel: string): Buffer {
  const raw = ir.raw ?? Buffer.alloc(0);
  if (upstreamModel === ir.model || !ir.contentType) return raw;
  return replaceFormField(raw, ir.contentType, 'model', upstreamModel);
}

export function openaiHeaders(
  channel: ChannelTarget,
  stream: boolean,
  contentType = 'application/json',
  accept = stream ? 'text/event-stream' : 'application/json',
  keyHeader?: OpenAiOptions['keyHeader'],
): Record<string, string> {
  if (keyHeader === 'api-key') return { 'content-type': contentType, 'api-key': channel.key, accept };
  const headers: Record<string, string> = {
    'content-type': contentType,
    authorization: `Bearer ${channel.key}`,
    accept,
  };
  if (channel.organization !== '') headers['openai-organization'] = channel.organization;
  return headers;
}

/** The URL of a call to `path` (one of OpenAI's) on `channel`. */
const urlOf = (
  channel: ChannelTarget,
  path: string,
  upstreamModel: string,
  options: OpenAiOptions,
): string =>
  options.url
    ? options.url(channel, path, upstreamModel)
    : joinUrl(channel.baseUrl || options.defaultBaseUrl, path);

/** A chat call from a client of another dialect, encoded from the neutral request. */
export function buildConvertedRequest(
  chat: ChatRequest,
  ir: IrRequest,
  channel: ChannelTarget,
  upstreamModel: string,
  options: OpenAiOptions,
): UpstreamRequest {
  const body = encodeOpenAiChatRequest(chat, { model: upstreamModel, streamUsage: options.askStreamUsage });
  if (options.limitField !== 'max_tokens' && body.max_tokens !== undefined) {
    body[options.limitField] = body.max_tokens;
    delete body.max_tokens;
  }
  return {
    url: urlOf(channel, OPENAI_PATHS.chat, upstreamModel, options),
    method: 'POST',
    headers: openaiHeaders(channel, ir.stream, undefined, undefined, options.keyHeader),
    body: JSON.stringify(body),
  };
}

export function buildOpenAiRequest(
  ir: IrRequest,
  channel: ChannelTarget,
  upstreamModel: string,
  options: OpenAiOptions,
): UpstreamRequest {
  if (ir.wire === 'responses') {
    return {
      url: urlOf(channel, '/v1/responses', upstreamModel, options),
      method: 'POST',
      headers: openaiHeaders(channel, ir.stream, undefined, undefined, options.keyHeader),
      body: responsesBody(ir, upstreamModel),
    };
  }
  return {
    url: urlOf(channel, OPENAI_PATHS[ir.mode], upstreamModel, options),
    method: 'POST',
    headers: openaiHeaders(channel, ir.stream, ir.contentType, acceptFor(ir), options.keyHeader),
    body: ir.contentType
      ? uploadBody(ir, upstreamModel)
      : openaiBody(ir, upstreamModel, options.askStreamUsage, options.limitField),
  };
}
