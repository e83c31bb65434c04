// Gemini models on Vertex: Google's publisher, generateContent / streamGenerateContent?alt=sse, the
// Gemini wire exactly as type 24 speaks it (the bodies come from the Gemini adapter's helpers), with
// the service account's access token instead of an API key.
import type { ChatRequest } from '../../ir/chat.js';
import type { IrRequest, UpstreamRequest } from '../../ir/request.js';
import { geminiCodec } from '../../wire/gemini/index.js';
import { codecStreamParser } from '../codec-stream.js';
import {
  geminiConvertedBody,
  geminiModelOf,
  geminiPassThroughBody,
  neutralRequest,
  safetyThreshold,
} from '../gemini/request.js';
import type { GeminiOptions } from '../gemini/request.js';
import { parseGeminiResponse } from '../gemini/response.js';
import type { ChannelTarget, ProviderAdapter } from '../types.js';
import { vertexCredentials } from './credentials.js';
import { VERTEX_DEFAULT_REGION, vertexOrigin, vertexRegion, vertexUrl } from './region.js';
import { parseServiceAccount } from './service-account.js';
import { parseVertexError, vertexHeaders } from './shared.js';

/** The generateContent call of a Gemini model; `options` as for type 24 (GeminiSafetySetting). */
export function buildVertexGeminiRequest(
  ir: IrRequest,
  channel: ChannelTarget,
  upstreamModel: string,
  chat?: ChatRequest,
  options?: GeminiOptions,
): UpstreamRequest {
  const { model, reasoning } = geminiModelOf(upstreamModel);
  const threshold = safetyThreshold(options);
  const body =
    ir.wire === 'gemini' && !chat
      ? geminiPassThroughBody(ir, reasoning, threshold)
      : geminiConvertedBody(neutralRequest(ir, chat), model, reasoning, threshold);
  return {
    url: vertexUrl({
      baseUrl: channel.baseUrl,
      project: parseServiceAccount(channel.key).project_id,
      region: vertexRegion(channel.other, upstreamModel, ir.model),
      publisher: 'google',
      model,
      method: ir.stream ? 'streamGenerateContent' : 'generateContent',
    }),
    method: 'POST',
    headers: vertexHeaders(channel, ir.stream),
    body,
  };
}

export const vertexGeminiAdapter: ProviderAdapter = {
  name: 'vertex',
  dialects: ['gemini'],
  defaultBaseUrl: vertexOrigin(VERTEX_DEFAULT_REGION),
  supports: (mode) => mode === 'chat',
  buildRequest: buildVertexGeminiRequest,
  parseResponse: (_ir, body, chat) => parseGeminiResponse(body, chat),
  parseError: parseVertexError,
  createStreamParser: () => codecStreamParser(geminiCodec),
  credentials: vertexCredentials,
};
