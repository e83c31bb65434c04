// The Anthropic Messages dialect: Anthropic clients (POST /v1/messages) and Anthropic-speaking
// upstreams (Anthropic, and Claude on Bedrock and Vertex, which reuse the request body).
import type { ChatCodec } from '../types.js';
import { decodeAnthropicAnswer, encodeAnthropicAnswer } from './answer.js';
import { decodeAnthropicRequest } from './request-decode.js';
import { encodeAnthropicRequest } from './request-encode.js';
import { createAnthropicStreamDecoder } from './stream-decode.js';
import { createAnthropicStreamEncoder } from './stream-encode.js';

export const anthropicCodec: ChatCodec = {
  wire: 'anthropic',
  decodeRequest: decodeAnthropicRequest,
  encodeRequest: encodeAnthropicRequest,
  decodeAnswer: decodeAnthropicAnswer,
  encodeAnswer: encodeAnthropicAnswer,
  createStreamDecoder: createAnthropicStreamDecoder,
  // Anthropic streams always end with usage, so includeUsage changes nothing.
  createStreamEncoder: (identity) => createAnthropicStreamEncoder(identity),
};

export { finishReasonOf, stopReasonOf } from './answer.js';
export {
  anthropicErrorBody,
  anthropicErrorType,
  anthropicStreamError,
  readAnthropicError,
} from './errors.js';
export { anthropicToolName } from './request-messages.js';
export { anthropicUsage, encodeAnthropicUsage } from './usage.js';
