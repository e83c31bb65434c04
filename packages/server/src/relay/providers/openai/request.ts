// OpenAI-compatible upstream calls: base URL + the endpoint's path, Bearer key, optional organization.
// The client's bytes go out unchanged unless a field has to change (mapped model, stream usage).
import type { IrRequest, RelayMode, UpstreamRequest } from '../../ir/request.js';
import type { ChannelTarget } from '../types.js';
import { replaceFormField } from './multipart.js';

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
}

export const joinUrl = (base: string, path: string): string => `${base.replace(/\/+$/, '')}${path}`;

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The body to send: the client's own bytes when nothing needs rewriting. */
export function openaiBody(ir: IrRequest, upstreamModel: string, askStreamUsage = true): Buffer | string {
  const needsUsage = askStreamUsage && ir.stream && !ir.clientWantsUsage;
  const renamed = upstreamModel !== ir.model;
  if (!needsUsage && !renamed && ir.raw) return ir.raw;
  // Copied onto an empty object rather than spread: a field added to a spread copy gets a hidden
  // class of its own on every call (see docs/relay-design.md, "One shape per object").
  const body: Record<string, unknown> = Object.assign({}, ir.body);
  body.model = upstreamModel;
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
): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': contentType,
    authorization: `Bearer ${channel.key}`,
    accept,
  };
  if (channel.organization !== '') headers['openai-organization'] = channel.organization;
  return headers;
}

export function buildOpenAiRequest(
  ir: IrRequest,
  channel: ChannelTarget,
  upstreamModel: string,
  options: OpenAiOptions,
): UpstreamRequest {
  return {
    url: joinUrl(channel.baseUrl || options.defaultBaseUrl, OPENAI_PATHS[ir.mode]),
    method: 'POST',
    headers: openaiHeaders(channel, ir.stream, ir.contentType, acceptFor(ir)),
    body: ir.contentType
      ? uploadBody(ir, upstreamModel)
      : openaiBody(ir, upstreamModel, options.askStreamUsage),
  };
}
