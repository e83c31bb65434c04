// Type 14: Anthropic's Messages API. A Claude client's request is forwarded as its own bytes (only
// the model and an output limit of the hold's may change); any other client's is encoded from the
// neutral request. The key goes in x-api-key; the client's anthropic-version and beta flags go along.
import type { ChatRequest } from '../../ir/chat.js';
import type { IrRequest, UpstreamRequest } from '../../ir/request.js';
import type { IrStreamEvent } from '../../ir/stream.js';
import { anthropicCodec, anthropicToolName, readAnthropicError } from '../../wire/anthropic/index.js';
import { codecStreamParser } from '../codec-stream.js';
import { joinUrl } from '../openai/request.js';
import type {
  ChannelTarget,
  ParsedResponse,
  ProviderAdapter,
  StreamParser,
  UpstreamErrorInfo,
} from '../types.js';
import { isRecord } from '../../wire/json.js';

type Json = Record<string, unknown>;

export const ANTHROPIC_VERSION = '2023-06-01';
const MAX_ERROR_TEXT = 500;
/** Anthropic's smallest thinking budget. */
const MIN_THINKING_BUDGET = 1024;

/** The headers of a Messages call: the key, the version the client asked for (or the default), its betas. */
export function anthropicHeaders(ir: IrRequest, key: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: ir.stream ? 'text/event-stream' : 'application/json',
    'anthropic-version': ir.vendorHeaders?.['anthropic-version'] ?? ANTHROPIC_VERSION,
  };
  if (key !== undefined) headers['x-api-key'] = key;
  const beta = ir.vendorHeaders?.['anthropic-beta'];
  if (beta) headers['anthropic-beta'] = beta;
  return headers;
}

/**
 * A Claude client's body for the upstream: its own bytes when nothing changes; else a copy with the
 * mapped model and the hold's output limit, keeping a thinking budget below that limit (Anthropic
 * refuses a budget of max_tokens or more, and thinking below 1024 tokens).
 */
export function anthropicPassThroughBody(ir: IrRequest, upstreamModel: string): Buffer | string {
  if (upstreamModel === ir.model && ir.outputLimit === undefined && ir.raw) return ir.raw;
  const body: Json = Object.assign({}, ir.body);
  body.model = upstreamModel;
  if (ir.outputLimit !== undefined) {
    body.max_tokens = ir.outputLimit;
    const thinking = body.thinking;
    if (isRecord(thinking) && thinking.type === 'enabled' && typeof thinking.budget_tokens === 'number') {
      if (ir.outputLimit <= MIN_THINKING_BUDGET) delete body.thinking;
      else if (thinking.budget_tokens >= ir.outputLimit) {
        body.thinking = Object.assign({}, thinking, { budget_tokens: ir.outputLimit - 1 });
      }
    }
  }
  return JSON.stringify(body);
}

/** The request body for the Messages API: the client's own, or encoded from the neutral request. */
export function anthropicBody(ir: IrRequest, upstreamModel: string, chat?: ChatRequest): Buffer | string {
  if (!chat) return anthropicPassThroughBody(ir, upstreamModel);
  return JSON.stringify(
    anthropicCodec.encodeRequest(chat, {
      model: upstreamModel,
      maxOutputTokens: chat.maxOutputTokens,
      streamUsage: true,
    }),
  );
}

/**
 * Anthropic accepts tool names of letters, digits, _ and - only, so the request renames others
 * (anthropicToolName); a client of another dialect must get its own names back in tool calls.
 */
export function toolNameRestorer(chat: ChatRequest | undefined): ((name: string) => string) | undefined {
  if (!chat) return undefined;
  const original = new Map<string, string>();
  for (const tool of chat.tools) {
    const sent = anthropicToolName(tool.name);
    if (sent !== tool.name) original.set(sent, tool.name);
  }
  return original.size === 0 ? undefined : (name) => original.get(name) ?? name;
}

/** A Messages answer: usage and text for billing, the neutral answer for a client of another dialect. */
export function parseAnthropicResponse(body: Buffer, chat?: ChatRequest): ParsedResponse {
  const answer = anthropicCodec.decodeAnswer(JSON.parse(body.toString('utf8')));
  let text = '';
  for (const part of answer.parts) text += part.type === 'tool_call' ? part.name + part.arguments : part.text;
  const restore = toolNameRestorer(chat);
  if (restore) {
    for (const part of answer.parts) if (part.type === 'tool_call') part.name = restore(part.name);
  }
  return { usage: answer.usage, text, body, answer: chat ? answer : undefined };
}

/** The stream parser, giving a client of another dialect its own tool names back. */
export function anthropicStreamParser(chat?: ChatRequest): StreamParser {
  const parser = codecStreamParser(anthropicCodec);
  const restore = toolNameRestorer(chat);
  if (!restore) return parser;
  const renamed = (events: IrStreamEvent[]) => {
    for (const event of events) {
      for (const delta of event.deltas ?? []) {
        if (delta.type === 'tool_call' && delta.name !== undefined) delta.name = restore(delta.name);
      }
    }
    return events;
  };
  return { push: (chunk) => renamed(parser.push(chunk)), end: () => renamed(parser.end()) };
}

export function parseAnthropicError(status: number, body: Buffer): UpstreamErrorInfo {
  const text = body.toString('utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const error = readAnthropicError(parsed);
  if (error) return { message: error.message, type: error.type, code: error.type };
  const trimmed = text.trim().slice(0, MAX_ERROR_TEXT);
  return {
    message: trimmed ? `upstream answered ${status}: ${trimmed}` : `upstream answered ${status}`,
    type: 'upstream_error',
    code: null,
  };
}

export const anthropicAdapter: ProviderAdapter = {
  name: 'anthropic',
  dialects: ['anthropic'],
  defaultBaseUrl: 'https://api.anthropic.com',
  supports: (mode) => mode === 'chat',
  buildRequest(ir, channel: ChannelTarget, upstreamModel, chat): UpstreamRequest {
    return {
      url: joinUrl(channel.baseUrl || this.defaultBaseUrl, '/v1/messages'),
      method: 'POST',
      headers: anthropicHeaders(ir, channel.key),
      body: anthropicBody(ir, upstreamModel, chat),
    };
  },
  parseResponse: (_ir, body, chat) => parseAnthropicResponse(body, chat),
  parseError: parseAnthropicError,
  createStreamParser: (_ir, chat) => anthropicStreamParser(chat),
};
