// The Gemini generateContent dialect: Gemini-native clients (@google/genai, Gemini CLI) on one side,
// Gemini and Vertex Gemini upstreams on the other.
import type { ChatCodec } from '../types.js';
import { decodeGeminiAnswer, encodeGeminiAnswer } from './answer.js';
import { decodeGeminiRequest } from './request-decode.js';
import { encodeGeminiRequest } from './request-encode.js';
import { createGeminiStreamDecoder } from './stream-decode.js';
import { createGeminiStreamEncoder } from './stream-encode.js';

export const geminiCodec: ChatCodec = {
  wire: 'gemini',
  decodeRequest: decodeGeminiRequest,
  encodeRequest: encodeGeminiRequest,
  decodeAnswer: decodeGeminiAnswer,
  encodeAnswer: encodeGeminiAnswer,
  createStreamDecoder: createGeminiStreamDecoder,
  createStreamEncoder: createGeminiStreamEncoder,
};

export { parseGeminiModelSuffix } from './model-suffix.js';
export type { GeminiModelSuffix } from './model-suffix.js';
export { encodeGeminiUsage, geminiErrorBody, geminiSse, geminiUsage } from './shared.js';
