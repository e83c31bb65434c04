// The OpenAI Responses API (POST /v1/responses) as a chat wire codec: clients that speak it (the openai
// SDKs, Codex CLI, the Vercel AI SDK, the Agents SDK) and upstreams that do (OpenAI, Azure's
// /openai/v1/responses). For a model of another vendor, function tools are relayed as they are, a
// namespace's tools and custom (free-text) tools as function tools whose names say what they were
// (tool-names.ts), and hosted tools (web_search, file_search, code_interpreter, image_generation,
// computer_use_preview, mcp, local_shell, …) are left out: they run inside OpenAI or take its own item
// formats, so the model simply cannot use them, and a call that offers them (Codex offers web_search by
// default) still goes through. A tool_choice that forces a hosted tool is refused with a 400.
// Error bodies are OpenAI's (`openAiErrorBody` in inbound/openai-shared.ts); errors inside a stream are
// the codec's `error` event.
import type { ChatCodec } from '../types.js';
import { decodeResponsesAnswer, encodeResponsesAnswer } from './answer.js';
import { decodeResponsesRequest } from './request-decode.js';
import { encodeResponsesRequest } from './request-encode.js';
import { ResponsesStreamDecoder } from './stream-decode.js';
import { ResponsesStreamEncoder } from './stream-encode.js';

export { responsesUsage } from './shared.js';

export const responsesCodec: ChatCodec = {
  wire: 'responses',
  decodeRequest: decodeResponsesRequest,
  encodeRequest: encodeResponsesRequest,
  decodeAnswer: decodeResponsesAnswer,
  encodeAnswer: encodeResponsesAnswer,
  createStreamDecoder: () => new ResponsesStreamDecoder(),
  // Usage is part of every Responses stream's closing event, so includeUsage changes nothing.
  createStreamEncoder: (identity) => new ResponsesStreamEncoder(identity),
};
