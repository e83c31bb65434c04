// A fake upstream speaking OpenAI, Anthropic Messages and Gemini (and playing midjourney-proxy and a Suno API
// server), for tests, end-to-end runs and the benchmark.
export {
  startMockUpstream,
  type MockUpstream,
  type MockUpstreamOptions,
  type TaskLifeChange,
} from './server.js';
export type { VertexServiceAccount } from './vertex-auth.js';
export { MOCK_AWS_CREDENTIALS, type AwsCredentials } from './bedrock-auth.js';
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
export {
  anthropicPromptTokens,
  expectedAnthropicReply,
  expectedAnthropicUsage,
  type AnthropicUsage,
} from './usage-anthropic.js';
export {
  expectedGeminiReply,
  expectedGeminiUsage,
  geminiPromptTokens,
  type GeminiUsage,
} from './usage-gemini.js';
export {
  expectedResponsesReply,
  expectedResponsesUsage,
  responsesPromptTokens,
  type ResponsesUsage,
} from './usage-responses.js';
export { DEFAULT_EMBEDDING_DIMENSIONS, mockEmbedding } from './routes/embeddings.js';
export { mockAudioSeconds, mockSpeech, AUDIO_TOKENS_PER_SECOND } from './routes/audio.js';
export { IMAGE_OUTPUT_TOKENS, MOCK_PNG } from './routes/images.js';
export { mockRelevance } from './routes/rerank.js';
export { DEFAULT_MODELS } from './routes/models.js';
export { DEFAULT_GEMINI_MODELS } from './routes/gemini-models.js';
export { DEFAULT_ANTHROPIC_MODELS } from './routes/anthropic.js';
export {
  DEFAULT_FAIL_REASON,
  DEFAULT_TASK_STEPS,
  type MidjourneyMode,
  type MockTask,
  type TaskOutcome,
  type TaskStatus,
} from './routes/task-life.js';
export { MOCK_MIDJOURNEY_SECRET } from './routes/midjourney.js';
export { MJ_CODE } from './routes/midjourney-checks.js';
export { MOCK_SUNO_KEY, SUNO_CLIP_SECONDS, mockLyrics } from './routes/suno.js';
