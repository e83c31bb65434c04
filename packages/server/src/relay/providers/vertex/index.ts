// Type 41: Google Vertex AI. The key is a service-account key file, exchanged for an access token at
// its token_uri (credentials.ts; the pipeline caches the token). One channel serves two dialects by
// model: Claude models through Anthropic's publisher in the Messages wire (claude.ts), every other
// model through Google's in the Gemini wire (gemini.ts). The region comes from the channel's `other`.
import type { ProviderAdapter } from '../types.js';
import { vertexClaudeAdapter } from './claude.js';
import { vertexGeminiAdapter } from './gemini.js';
import { isClaudeModel } from './region.js';

/** The adapter serving an upstream model on Vertex. */
export const vertexAdapterFor = (upstreamModel: string): ProviderAdapter =>
  isClaudeModel(upstreamModel) ? vertexClaudeAdapter : vertexGeminiAdapter;

/**
 * The type's adapter, as channel selection sees it. Calls are made by the adapter of their model
 * (`forModel`), which the pipeline resolves once the model is mapped; on its own it is Gemini's.
 */
export const vertexAdapter: ProviderAdapter = Object.assign({}, vertexGeminiAdapter, {
  forModel: vertexAdapterFor,
});

export { vertexClaudeAdapter } from './claude.js';
export { vertexGeminiAdapter } from './gemini.js';
export { vertexCredentials } from './credentials.js';
export { parseServiceAccount } from './service-account.js';
export type { ServiceAccount } from './service-account.js';
export { vertexRegion, vertexUrl, isClaudeModel } from './region.js';
