// Claude models on Vertex: Anthropic's publisher, rawPredict / streamRawPredict, the Messages body
// without `model` (it is in the URL) and with `anthropic_version: "vertex-2023-10-16"`; answers and
// streams are Anthropic's own, read by the Anthropic adapter's helpers.
import type { ChatRequest } from '../../ir/chat.js';
import type { IrRequest, UpstreamRequest } from '../../ir/request.js';
import { anthropicCodec } from '../../wire/anthropic/index.js';
import {
  anthropicPassThroughBody,
  anthropicStreamParser,
  parseAnthropicResponse,
} from '../anthropic/index.js';
import { neutralRequest } from '../gemini/request.js';
import type { ChannelTarget, ProviderAdapter } from '../types.js';
import { vertexCredentials } from './credentials.js';
import { VERTEX_CLAUDE_REGION, vertexOrigin, vertexRegion, vertexUrl } from './region.js';
import { parseServiceAccount } from './service-account.js';
import { parseVertexError, vertexHeaders } from './shared.js';

/** The API version Vertex takes for Claude, in the body instead of the anthropic-version header. */
export const VERTEX_ANTHROPIC_VERSION = 'vertex-2023-10-16';

/**
 * The Messages body for Vertex: a Claude client's own (with the hold's output limit, as type 14
 * sends it), or one encoded from the neutral request (a client of another dialect; the channel
 * probe's OpenAI body); then `model` taken out and Vertex's `anthropic_version` put first.
 */
export function vertexClaudeBody(ir: IrRequest, upstreamModel: string, chat?: ChatRequest): string {
  let body: Readonly<Record<string, unknown>>;
  if (ir.wire === 'anthropic' && !chat) {
    const own = anthropicPassThroughBody(ir, upstreamModel);
    body = own === ir.raw ? ir.body : (JSON.parse(own.toString()) as Record<string, unknown>);
  } else {
    const request = neutralRequest(ir, chat);
    body = anthropicCodec.encodeRequest(request, {
      model: upstreamModel,
      maxOutputTokens: request.maxOutputTokens,
      streamUsage: true,
    });
  }
  const vertex: Record<string, unknown> = Object.assign(
    { anthropic_version: VERTEX_ANTHROPIC_VERSION },
    body,
  );
  delete vertex.model;
  vertex.anthropic_version = VERTEX_ANTHROPIC_VERSION;
  return JSON.stringify(vertex);
}

/**
 * Vertex names Claude models `<name>@<date>` where Anthropic writes `<name>-<date>`
 * (claude-3-5-sonnet-20240620 → claude-3-5-sonnet@20240620), so Anthropic's names work unmapped; a
 * name already in Vertex's form, or without a date (claude-sonnet-4-5), goes as it is.
 */
export const vertexClaudeModelId = (model: string): string =>
  model.includes('@') ? model : model.replace(/^(claude-.+)-(\d{8})$/, '$1@$2');

export function buildVertexClaudeRequest(
  ir: IrRequest,
  channel: ChannelTarget,
  upstreamModel: string,
  chat?: ChatRequest,
): UpstreamRequest {
  const headers = vertexHeaders(channel, ir.stream);
  // Beta features are asked for as on Anthropic's own API.
  const beta = ir.vendorHeaders?.['anthropic-beta'];
  if (beta) headers['anthropic-beta'] = beta;
  return {
    url: vertexUrl({
      baseUrl: channel.baseUrl,
      project: parseServiceAccount(channel.key).project_id,
      region: vertexRegion(channel.other, upstreamModel, ir.model),
      publisher: 'anthropic',
      model: vertexClaudeModelId(upstreamModel),
      method: ir.stream ? 'streamRawPredict' : 'rawPredict',
    }),
    method: 'POST',
    headers,
    body: vertexClaudeBody(ir, upstreamModel, chat),
  };
}

export const vertexClaudeAdapter: ProviderAdapter = {
  name: 'vertex',
  dialects: ['anthropic'],
  defaultBaseUrl: vertexOrigin(VERTEX_CLAUDE_REGION),
  supports: (mode) => mode === 'chat',
  buildRequest: buildVertexClaudeRequest,
  parseResponse: (_ir, body, chat) => parseAnthropicResponse(body, chat),
  parseError: parseVertexError,
  createStreamParser: (_ir, chat) => anthropicStreamParser(chat),
  credentials: vertexCredentials,
};
