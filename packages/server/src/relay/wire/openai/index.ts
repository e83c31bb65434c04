// The OpenAI Chat Completions dialect as a chat codec: the relay's default wire, spoken by OpenAI,
// Azure and every OpenAI-compatible vendor.
import type { ChatCodec } from '../types.js';
import { decodeOpenAiChatAnswer, encodeOpenAiChatAnswer } from './answer.js';
import { decodeOpenAiChatRequest, encodeOpenAiChatRequest } from './request.js';
import { createOpenAiChatDecoder, createOpenAiChatEncoder } from './stream.js';

export const openAiChatCodec: ChatCodec = {
  wire: 'openai',
  decodeRequest: decodeOpenAiChatRequest,
  encodeRequest: encodeOpenAiChatRequest,
  decodeAnswer: decodeOpenAiChatAnswer,
  encodeAnswer: encodeOpenAiChatAnswer,
  createStreamDecoder: createOpenAiChatDecoder,
  createStreamEncoder: createOpenAiChatEncoder,
};

export { openAiChunkDeltas, openAiTextTemplate } from './stream.js';
export { openAiUsage, encodeOpenAiUsage } from './answer.js';
export { effortForBudget } from './request.js';
