// A fake OpenAI-compatible upstream for tests, end-to-end runs and the benchmark.
export { startMockUpstream, type MockUpstream, type MockUpstreamOptions } from './server.js';
export type { BehaviourScope, QueueScope } from './behaviours.js';
export type { MockSettings, Outcome, RecordedRequest } from './exchange.js';
export {
  DirectiveError,
  mockMarker,
  parseDirective,
  stripMarkers,
  withMock,
  type MockDirective,
  type MockToolCall,
} from './directive.js';
export {
  chatPromptTokens,
  countTokens,
  expectedChatReply,
  expectedChatUsage,
  expectedCompletionUsage,
  expectedEmbeddingUsage,
  expectedRerankUsage,
  type ChatUsage,
  type SimpleUsage,
} from './usage.js';
export { DEFAULT_EMBEDDING_DIMENSIONS, mockEmbedding } from './routes/embeddings.js';
export { mockAudioSeconds, mockSpeech, AUDIO_TOKENS_PER_SECOND } from './routes/audio.js';
export { IMAGE_OUTPUT_TOKENS, MOCK_PNG } from './routes/images.js';
export { mockRelevance } from './routes/rerank.js';
export { DEFAULT_MODELS } from './routes/models.js';
