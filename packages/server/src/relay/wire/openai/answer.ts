// OpenAI Chat Completions answers ⇄ the neutral chat answer, and the usage object both ways.
import type { ChatAnswer, FinishReason, StreamIdentity } from '../../ir/chat.js';
import { trustedUsage, upstreamTokenCount } from '../../ir/usage.js';
import type { IrUsage } from '../../ir/usage.js';
import { isRecord, str } from '../json.js';
import type { Json } from '../json.js';

/** OpenAI's usage object (cached tokens inside prompt_tokens, reasoning inside completion_tokens). */
export function openAiUsage(value: unknown): IrUsage | undefined {
  if (!isRecord(value)) return undefined;
  const prompt = isRecord(value.prompt_tokens_details) ? value.prompt_tokens_details : {};
  const completion = isRecord(value.completion_tokens_details) ? value.completion_tokens_details : {};
  const usage = trustedUsage({
    prompt: value.prompt_tokens,
    completion: value.completion_tokens,
    cached: prompt.cached_tokens,
  });
  if (!usage) return undefined;
  const reasoning = upstreamTokenCount(completion.reasoning_tokens);
  if (reasoning) usage.reasoningTokens = Math.min(reasoning, usage.completionTokens);
  return usage;
}

export function encodeOpenAiUsage(usage: IrUsage): Json {
  return {
    prompt_tokens: usage.promptTokens,
    completion_tokens: usage.completionTokens,
    total_tokens: usage.promptTokens + usage.completionTokens,
    prompt_tokens_details: { cached_tokens: usage.cachedTokens },
    completion_tokens_details: { reasoning_tokens: usage.reasoningTokens ?? 0 },
  };
}

const FINISH_IN: Readonly<Record<string, FinishReason>> = {
  stop: 'stop',
  length: 'length',
  tool_calls: 'tool_calls',
  function_call: 'tool_calls',
  content_filter: 'content_filter',
};

export const decodeFinishReason = (reason: unknown): FinishReason =>
  (typeof reason === 'string' && Object.hasOwn(FINISH_IN, reason) ? FINISH_IN[reason] : undefined) ?? 'stop';

export function decodeOpenAiChatAnswer(body: unknown): ChatAnswer {
  if (!isRecord(body) || !Array.isArray(body.choices)) throw new Error('the answer has no choices');
  const choice: unknown = body.choices[0];
  const message = isRecord(choice) && isRecord(choice.message) ? choice.message : {};
  const parts: ChatAnswer['parts'] = [];
  const reasoning = str(message.reasoning_content) ?? str(message.reasoning);
  if (reasoning) parts.push({ type: 'reasoning', text: reasoning });
  const content = str(message.content);
  if (content) parts.push({ type: 'text', text: content });
  const refusal = str(message.refusal);
  if (refusal && !content) parts.push({ type: 'text', text: refusal });
  if (Array.isArray(message.tool_calls)) {
    for (const call of message.tool_calls) {
      if (!isRecord(call) || !isRecord(call.function)) continue;
      parts.push({
        type: 'tool_call',
        id: str(call.id) ?? '',
        name: str(call.function.name) ?? '',
        arguments: str(call.function.arguments) ?? '{}',
      });
    }
  }
  const usage = openAiUsage(body.usage);
  return {
    id: str(body.id) ?? '',
    model: str(body.model) ?? '',
    parts,
    finishReason: decodeFinishReason(isRecord(choice) ? choice.finish_reason : undefined),
    ...(usage ? { usage } : {}),
  };
}

export function encodeOpenAiChatAnswer(answer: ChatAnswer, identity: StreamIdentity): Json {
  let text = '';
  let reasoning = '';
  const calls: Json[] = [];
  for (const part of answer.parts) {
    if (part.type === 'text') text += part.text;
    else if (part.type === 'reasoning') reasoning += part.text;
    else
      calls.push({ id: part.id, type: 'function', function: { name: part.name, arguments: part.arguments } });
  }
  const message: Json = { role: 'assistant', content: text === '' && calls.length > 0 ? null : text };
  if (reasoning !== '') message.reasoning_content = reasoning;
  if (calls.length > 0) message.tool_calls = calls;
  return {
    id: `chatcmpl-${identity.id}`,
    object: 'chat.completion',
    created: identity.created,
    model: identity.model,
    choices: [{ index: 0, message, finish_reason: answer.finishReason, logprobs: null }],
    usage: encodeOpenAiUsage(answer.usage ?? { promptTokens: 0, completionTokens: 0, cachedTokens: 0 }),
  };
}
