// Type 24: Google's Gemini API (generativelanguage.googleapis.com). Chat through generateContent /
// streamGenerateContent?alt=sse, embeddings through embedContent / batchEmbedContents, the key in
// x-goog-api-key. A thinking suffix on the upstream model name (-thinking, -thinking-<budget>,
// -nothinking) is taken off the URL and sets the thinking config instead.
import type { ChatRequest } from '../../ir/chat.js';
import type { IrRequest, UpstreamRequest } from '../../ir/request.js';
import { geminiCodec } from '../../wire/gemini/index.js';
import { codecStreamParser } from '../codec-stream.js';
import type { ChannelTarget, ProviderAdapter } from '../types.js';
import {
  geminiEmbedBody,
  isBatchEmbedding,
  openAiEmbeddingsToGemini,
  parseGeminiEmbeddings,
} from './embeddings.js';
import {
  GEMINI_BASE_URL,
  geminiConvertedBody,
  geminiHeaders,
  geminiModelOf,
  geminiPassThroughBody,
  geminiUrl,
  neutralRequest,
  safetyThreshold,
} from './request.js';
import type { GeminiOptions } from './request.js';
import { parseGeminiError, parseGeminiResponse } from './response.js';

function embeddingRequest(ir: IrRequest, channel: ChannelTarget, model: string): UpstreamRequest {
  const own = ir.wire === 'gemini';
  const batch = !own || isBatchEmbedding(ir.body);
  return {
    url: geminiUrl(channel, model, batch ? 'batchEmbedContents' : 'embedContent'),
    method: 'POST',
    headers: geminiHeaders(channel.key, false),
    body: own ? geminiEmbedBody(ir, model) : JSON.stringify(openAiEmbeddingsToGemini(ir.body, model)),
  };
}

/**
 * The upstream call. `options` is the site's option store (GeminiSafetySetting); without it the
 * default threshold applies.
 */
export function buildGeminiRequest(
  ir: IrRequest,
  channel: ChannelTarget,
  upstreamModel: string,
  chat?: ChatRequest,
  options?: GeminiOptions,
): UpstreamRequest {
  const { model, reasoning } = geminiModelOf(upstreamModel);
  if (ir.mode === 'embeddings') return embeddingRequest(ir, channel, model);
  const threshold = safetyThreshold(options);
  const body =
    ir.wire === 'gemini' && !chat
      ? geminiPassThroughBody(ir, reasoning, threshold)
      : geminiConvertedBody(neutralRequest(ir, chat), model, reasoning, threshold);
  return {
    url: geminiUrl(channel, model, ir.stream ? 'streamGenerateContent' : 'generateContent'),
    method: 'POST',
    headers: geminiHeaders(channel.key, ir.stream),
    body,
  };
}

export const geminiAdapter: ProviderAdapter = {
  name: 'gemini',
  dialects: ['gemini'],
  defaultBaseUrl: GEMINI_BASE_URL,
  supports: (mode) => mode === 'chat' || mode === 'embeddings',
  buildRequest: buildGeminiRequest,
  parseResponse: (ir, body, chat) =>
    ir.mode === 'embeddings' ? parseGeminiEmbeddings(ir, body) : parseGeminiResponse(body, chat),
  parseError: parseGeminiError,
  createStreamParser: () => codecStreamParser(geminiCodec),
};
