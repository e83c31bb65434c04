// Reading OpenAI-format answers: usage, generated text and error details.
import { decodeOpenAiChatAnswer, openAiUsage } from '../../wire/openai/answer.js';
import type { ParsedResponse, UpstreamErrorInfo } from '../types.js';
import { isRecord } from '../../wire/json.js';

/**
 * OpenAI's usage object; cached tokens are already inside prompt_tokens. Undefined when there is
 * none or its counts are not believable, so the call is billed by Sluice's own count.
 */
export const readUsage = openAiUsage;

function toolCallText(calls: unknown): string {
  if (!Array.isArray(calls)) return '';
  let text = '';
  for (const call of calls) {
    if (!isRecord(call) || !isRecord(call.function)) continue;
    const fn = call.function;
    if (typeof fn.name === 'string') text += fn.name;
    if (typeof fn.arguments === 'string') text += fn.arguments;
  }
  return text;
}

/** The generated text in a message or a stream delta: content, reasoning and tool-call arguments. */
function messageText(message: unknown): string {
  if (!isRecord(message)) return '';
  let text = '';
  if (typeof message.content === 'string') text += message.content;
  if (typeof message.reasoning_content === 'string') text += message.reasoning_content;
  return text + toolCallText(message.tool_calls);
}

/** Generated text of a whole answer or of one stream chunk (chat `message`/`delta`, completions `text`). */
export function choicesText(choices: unknown): string {
  if (!Array.isArray(choices)) return '';
  let text = '';
  for (const choice of choices) {
    if (!isRecord(choice)) continue;
    if (typeof choice.text === 'string') text += choice.text;
    text += messageText(choice.message) + messageText(choice.delta);
  }
  return text;
}

/** A chat or completions answer; with `convert`, its neutral form too (chat only). */
export function parseOpenAiResponse(body: Buffer, convert = false): ParsedResponse {
  const parsed: unknown = JSON.parse(body.toString('utf8'));
  if (!isRecord(parsed)) throw new Error('the answer is not a JSON object');
  if (!Array.isArray(parsed.choices)) throw new Error('the answer has no choices');
  const usage = readUsage(parsed.usage);
  return {
    usage,
    text: choicesText(parsed.choices),
    body,
    answer: convert ? decodeOpenAiChatAnswer(parsed) : undefined,
  };
}

const MAX_ERROR_TEXT = 500;

export function parseOpenAiError(status: number, body: Buffer): UpstreamErrorInfo {
  const text = body.toString('utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const error = isRecord(parsed) ? (isRecord(parsed.error) ? parsed.error : parsed) : undefined;
  const message = error && typeof error.message === 'string' ? error.message : '';
  const trimmed = text.trim().slice(0, MAX_ERROR_TEXT);
  return {
    message: message || (trimmed ? `upstream answered ${status}: ${trimmed}` : `upstream answered ${status}`),
    type: error && typeof error.type === 'string' ? error.type : 'upstream_error',
    code:
      error && (typeof error.code === 'string' || typeof error.code === 'number') ? String(error.code) : null,
  };
}
