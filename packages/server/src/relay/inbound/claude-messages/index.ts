// POST /v1/messages: Anthropic's Messages format, for the Anthropic SDK and Claude Code. Served by
// Claude upstreams as bytes, by any other upstream through the neutral request.
import { z } from 'zod';
import { countTokens } from '../../../billing/token-counter.js';
import type { IrRequest } from '../../ir/request.js';
import { anthropicCodec, anthropicErrorBody, anthropicStreamError } from '../../wire/anthropic/index.js';
import type { InboundFormat } from '../types.js';
import { estimateTokens, parseOrThrow } from '../openai-shared.js';
import { isRecord } from '../../wire/json.js';

const messagesRequest = z.looseObject({
  model: z.string({ error: 'model: Field required' }).min(1, { error: 'model: Field required' }),
  max_tokens: z
    .number({ error: 'max_tokens: Field required' })
    .int({ error: 'max_tokens: Input should be a valid integer' })
    .min(1, { error: 'max_tokens: Input should be greater than or equal to 1' }),
  messages: z.array(z.unknown(), { error: 'messages: Field required' }),
  stream: z.boolean({ error: 'stream: Input should be a valid boolean' }).nullish(),
});

type Json = Record<string, unknown>;

/** The text of a string or of blocks (text, tool results' text, thinking), for counting. */
function blocksText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  let text = '';
  for (const block of content) {
    if (!isRecord(block)) continue;
    if (typeof block.text === 'string') text += block.text;
    else if (typeof block.thinking === 'string') text += block.thinking;
    else if (block.type === 'tool_use') text += `${String(block.name)}${JSON.stringify(block.input ?? {})}`;
    else if (block.type === 'tool_result') text += blocksText(block.content);
    text += '\n';
  }
  return text;
}

/** Every prompt text of a Messages request: system, messages and tool definitions. */
export function messagesPromptText(body: Readonly<Json>): string {
  let text = blocksText(body.system);
  for (const message of Array.isArray(body.messages) ? body.messages : []) {
    if (isRecord(message)) text += `\n${String(message.role)}\n${blocksText(message.content)}`;
  }
  if (Array.isArray(body.tools)) text += JSON.stringify(body.tools);
  return text;
}

const header = (
  headers: Readonly<Record<string, string | string[] | undefined>> | undefined,
  name: string,
) => {
  const value = headers?.[name];
  return Array.isArray(value) ? value.join(',') : value;
};

export const claudeMessages: InboundFormat = {
  mode: 'chat',
  wireFormat: 'anthropic',
  codec: anthropicCodec,
  parse(body, raw, headers) {
    const req = parseOrThrow(messagesRequest, body);
    const version = header(headers, 'anthropic-version');
    const beta = header(headers, 'anthropic-beta');
    const vendorHeaders: Record<string, string> = {};
    if (version) vendorHeaders['anthropic-version'] = version;
    if (beta) vendorHeaders['anthropic-beta'] = beta;
    return {
      mode: 'chat',
      wire: 'anthropic',
      model: req.model,
      stream: req.stream === true,
      // Anthropic streams always carry usage (message_start and message_delta).
      clientWantsUsage: true,
      maxTokens: req.max_tokens,
      body: req,
      ...(raw ? { raw } : {}),
      vendorHeaders,
    };
  },
  estimatePromptTokens(ir: IrRequest) {
    return estimateTokens(messagesPromptText(ir.body).length);
  },
  countPromptTokens(ir: IrRequest) {
    return countTokens(messagesPromptText(ir.body), ir.model);
  },
  errorBody: anthropicErrorBody,
  streamError: anthropicStreamError,
  // A Claude stream that ended with a stop reason but no message_stop gets one.
  streamEnd: 'event: message_stop\ndata: {"type":"message_stop"}\n\n',
};
