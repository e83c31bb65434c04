// Google's Gemini API as clients call it (@google/genai, Gemini CLI): generateContent and
// streamGenerateContent (chat: forwarded to Gemini upstreams as bytes, converted for any other), and
// embedContent / batchEmbedContents (embeddings). Gemini names the model and the streaming choice in
// the URL, so the route hands parse a GeminiCall holding them with the body.
import { countTokens } from '../../../billing/token-counter.js';
import { RelayError } from '../../ir/errors.js';
import type { IrError } from '../../ir/errors.js';
import type { IrRequest } from '../../ir/request.js';
import { geminiCodec, geminiErrorBody, geminiSse } from '../../wire/gemini/index.js';
import { estimateTokens } from '../openai-shared.js';
import type { InboundFormat } from '../types.js';
import { embedPromptText, generatePromptText, geminiField } from './prompt-text.js';
import { isRecord } from '../../wire/json.js';

type Json = Record<string, unknown>;

/** A call as the route read it: the model and streaming from the path, the client's parsed body. */
export class GeminiCall {
  constructor(
    readonly model: string,
    readonly stream: boolean,
    readonly body: unknown,
  ) {}
}

const invalid = (message: string) => new RelayError(400, message, 'invalid_request');

function callOf(call: unknown): GeminiCall {
  // Only the Gemini routes call these formats, always with a GeminiCall.
  if (!(call instanceof GeminiCall)) throw new RelayError(500, 'a Gemini call must come through its route');
  if (call.model === '') throw invalid('the model name is missing from the URL (models/{model}:{method})');
  if (!isRecord(call.body)) throw invalid('Invalid JSON payload received. Expected an object.');
  return call;
}

/** The client's output limit (generationConfig.maxOutputTokens), checked as Google would. */
function maxOutputTokens(body: Readonly<Json>): number | undefined {
  const config = geminiField(body, 'generationConfig');
  if (config === undefined || config === null) return undefined;
  if (!isRecord(config)) throw invalid('generationConfig must be an object');
  const limit = geminiField(config, 'maxOutputTokens');
  if (limit === undefined || limit === null) return undefined;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 0) {
    throw invalid('generationConfig.maxOutputTokens must be a non-negative integer');
  }
  return limit > 0 ? limit : undefined;
}

/** Errors inside a started stream, in Google's shape (Gemini sends them as a data event). */
const geminiStreamError = (error: IrError): string => geminiSse(geminiErrorBody(error));

export const geminiGenerateContent: InboundFormat = {
  mode: 'chat',
  wireFormat: 'gemini',
  codec: geminiCodec,
  parse(value, raw) {
    const call = callOf(value);
    const body = call.body as Json;
    if (!Array.isArray(body.contents) || body.contents.length === 0) {
      throw invalid('* GenerateContentRequest.contents: contents is not specified');
    }
    return {
      mode: 'chat',
      model: call.model,
      stream: call.stream,
      // Gemini reports usage in every answer, unasked.
      clientWantsUsage: true,
      maxTokens: maxOutputTokens(body),
      body,
      wire: 'gemini',
      raw,
    };
  },
  estimatePromptTokens: (ir: IrRequest) => estimateTokens(generatePromptText(ir.body).length),
  countPromptTokens: (ir: IrRequest) => countTokens(generatePromptText(ir.body), ir.model),
  errorBody: geminiErrorBody,
  streamError: geminiStreamError,
  // A Gemini stream has no end marker: it stops after the event carrying the finishReason.
  streamEnd: '',
};

function checkEmbedRequest(request: unknown, at: string): void {
  const content = isRecord(request) ? request.content : undefined;
  if (!isRecord(content) || !Array.isArray(content.parts)) {
    throw invalid(`* ${at}.content: content is not specified`);
  }
}

/** embedContent ({content}) or batchEmbedContents ({requests: [{model, content}]}), billed by prompt tokens. */
export const geminiEmbedContent: InboundFormat = {
  mode: 'embeddings',
  wireFormat: 'gemini',
  parse(value, raw) {
    const call = callOf(value);
    const body = call.body as Json;
    if (body.requests !== undefined) {
      if (!Array.isArray(body.requests) || body.requests.length === 0) {
        throw invalid('* BatchEmbedContentsRequest.requests: requests is not specified');
      }
      body.requests.forEach((request: unknown, i: number) =>
        checkEmbedRequest(request, `BatchEmbedContentsRequest.requests[${i}]`),
      );
    } else {
      checkEmbedRequest(body, 'EmbedContentRequest');
    }
    return {
      mode: 'embeddings',
      model: call.model,
      stream: false,
      clientWantsUsage: false,
      body,
      wire: 'gemini',
      raw,
    };
  },
  estimatePromptTokens: (ir: IrRequest) => estimateTokens(embedPromptText(ir.body).length),
  countPromptTokens: (ir: IrRequest) => countTokens(embedPromptText(ir.body), ir.model),
  errorBody: geminiErrorBody,
  streamError: geminiStreamError,
  streamEnd: '',
};

/** :countTokens takes `contents` or a whole `generateContentRequest`; the prompt text of either. */
export function countTokensText(body: unknown): string {
  if (!isRecord(body)) throw invalid('Invalid JSON payload received. Expected an object.');
  const request = geminiField(body, 'generateContentRequest');
  return generatePromptText(isRecord(request) ? request : body);
}
