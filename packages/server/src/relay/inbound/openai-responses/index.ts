// POST /v1/responses: the OpenAI Responses format (openai SDKs, Codex CLI, the Vercel AI SDK, the Agents
// SDK). Stateless: an OpenAI channel gets the client's bytes (store and previous_response_id included);
// any other channel gets the call through the neutral request, where previous_response_id cannot be
// honoured and is refused.
import { z } from 'zod';
import { countTokens } from '../../../billing/token-counter.js';
import type { IrError } from '../../ir/errors.js';
import { RelayError } from '../../ir/errors.js';
import type { IrRequest } from '../../ir/request.js';
import { responsesCodec } from '../../wire/responses/index.js';
import type { ChatCodec } from '../../wire/types.js';
import type { InboundFormat } from '../types.js';
import { estimateTokens, openAiErrorBody, parseOrThrow } from '../openai-shared.js';
import { isRecord } from '../../wire/json.js';

const responsesRequest = z.looseObject({
  model: z.string({ error: 'model is required' }).min(1, { error: 'model is required' }),
  input: z
    .union([z.string(), z.array(z.unknown())], { error: 'input must be a string or an array of items' })
    .optional(),
  instructions: z.string().nullish(),
  stream: z.boolean({ error: 'stream must be true or false' }).nullish(),
  max_output_tokens: z.number().int().min(1, { error: 'max_output_tokens must be at least 1' }).nullish(),
  previous_response_id: z.string().nullish(),
});

type Json = Record<string, unknown>;

/** The text of an input: strings, content parts' text, function outputs and arguments. */
function inputText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(inputText).join('\n');
  if (!isRecord(value)) return '';
  let text = '';
  for (const key of ['text', 'content', 'output', 'arguments', 'name', 'input', 'tools'])
    text += inputText(value[key]);
  return text;
}

const promptText = (body: Readonly<Json>): string =>
  `${typeof body.instructions === 'string' ? body.instructions : ''}\n${inputText(body.input)}${
    Array.isArray(body.tools) ? JSON.stringify(body.tools) : ''
  }`;

/**
 * The codec, refusing what only OpenAI keeps: a conversation stored upstream cannot be continued on
 * a channel of another vendor.
 */
const statelessCodec: ChatCodec = Object.assign({}, responsesCodec, {
  decodeRequest(body: Readonly<Json>) {
    if (typeof body.previous_response_id === 'string' && body.previous_response_id !== '') {
      throw new RelayError(
        400,
        'previous_response_id continues a conversation stored by OpenAI; this model is served by another vendor, so send the whole conversation in input instead',
        'previous_response_id_unsupported',
      );
    }
    return responsesCodec.decodeRequest(body);
  },
});

/** An error inside a started Responses stream (the encoder's own is used when the answer is converted). */
export const responsesStreamError = (error: IrError): string =>
  `event: error\ndata: ${JSON.stringify({ type: 'error', sequence_number: 0, code: error.code, message: error.message, param: null })}\n\n`;

export const openAiResponses: InboundFormat = {
  mode: 'chat',
  wireFormat: 'responses',
  codec: statelessCodec,
  parse(body, raw) {
    const req = parseOrThrow(responsesRequest, body);
    if (req.input === undefined && !req.previous_response_id) {
      throw new RelayError(400, 'input is required', 'invalid_request');
    }
    return {
      mode: 'chat',
      wire: 'responses',
      model: req.model,
      stream: req.stream === true,
      // Every Responses stream closes with the usage (response.completed).
      clientWantsUsage: true,
      ...(req.max_output_tokens != null ? { maxTokens: req.max_output_tokens } : {}),
      body: req,
      ...(raw ? { raw } : {}),
    };
  },
  estimatePromptTokens(ir: IrRequest) {
    return estimateTokens(promptText(ir.body).length);
  },
  countPromptTokens(ir: IrRequest) {
    return countTokens(promptText(ir.body), ir.model);
  },
  errorBody: openAiErrorBody,
  streamError: responsesStreamError,
  // A Responses stream ends with response.completed; there is no marker to add.
  streamEnd: '',
};
