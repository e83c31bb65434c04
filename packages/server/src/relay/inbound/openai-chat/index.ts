// POST /v1/chat/completions: the OpenAI chat format, which is also the IR's own shape.
import { z } from 'zod';
import { countTokens } from '../../../billing/token-counter.js';
import type { IrRequest } from '../../ir/request.js';
import type { InboundFormat } from '../types.js';
import { openAiChatCodec } from '../../wire/openai/index.js';
import {
  OPENAI_STREAM_END,
  contentLength,
  contentText,
  estimateTokens,
  generationFields,
  openAiErrorBody,
  openAiStreamError,
  parseOrThrow,
} from '../openai-shared.js';

const message = z.looseObject({
  role: z.string({ error: 'every message needs a role' }),
  content: z.unknown().optional(),
  name: z.string().nullish(),
});

const chatRequest = z.looseObject({
  ...generationFields,
  messages: z
    .array(message, { error: 'messages must be an array' })
    .min(1, { error: 'messages must not be empty' }),
});

type ChatMessage = z.output<typeof message>;

const messagesOf = (ir: IrRequest): ChatMessage[] => (ir.body.messages as ChatMessage[] | undefined) ?? [];

/** Tokens a chat format adds around each message and before the reply, as OpenAI documents. */
const PER_MESSAGE = 3;
const REPLY_PRIMING = 3;

export const openAiChat: InboundFormat = {
  mode: 'chat',
  wireFormat: 'openai',
  codec: openAiChatCodec,
  parse(body, raw) {
    const req = parseOrThrow(chatRequest, body);
    const maxTokens = req.max_completion_tokens ?? req.max_tokens ?? undefined;
    return {
      mode: 'chat',
      model: req.model,
      stream: req.stream === true,
      clientWantsUsage: req.stream_options?.include_usage === true,
      ...(maxTokens !== undefined ? { maxTokens } : {}),
      body: req,
      ...(raw ? { raw } : {}),
    };
  },
  estimatePromptTokens(ir) {
    let characters = 0;
    for (const m of messagesOf(ir)) characters += contentLength(m.content) + 16;
    return estimateTokens(characters);
  },
  async countPromptTokens(ir) {
    const messages = messagesOf(ir);
    const text = messages.map((m) => `${m.role}\n${m.name ?? ''}\n${contentText(m.content)}`).join('\n');
    return (await countTokens(text, ir.model)) + messages.length * PER_MESSAGE + REPLY_PRIMING;
  },
  errorBody: openAiErrorBody,
  streamError: openAiStreamError,
  streamEnd: OPENAI_STREAM_END,
};
