// Small pieces every part of the Responses codec uses: JSON checks, data URLs, item ids and usage.
import type { z } from 'zod';
import { RelayError } from '../../ir/errors.js';
import { trustedUsage, upstreamTokenCount } from '../../ir/usage.js';
import type { IrUsage } from '../../ir/usage.js';
import type { StreamIdentity } from '../../ir/chat.js';

import { dataUrl, isRecord, parseDataUrl, str } from '../json.js';
import type { Json } from '../json.js';

export { dataUrl, isRecord, parseDataUrl, str, type Json };

/** A 400 for a client request Sluice cannot take, worded for the field at `path`. */
export const badRequest = (path: string, message: string, code = 'invalid_request'): RelayError =>
  new RelayError(400, path === '' ? message : `${path}: ${message}`, code);

/** Parses one piece of the request with `schema`, or throws a 400 naming the field. */
export function parseAt<S extends z.ZodType>(schema: S, value: unknown, path: string): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = [path, ...(issue?.path ?? []).map(String)].filter((p) => p !== '').join('.');
  throw badRequest(where, issue?.message ?? 'is not valid');
}

export type ItemKind = 'msg' | 'rs' | 'fc' | 'ctc' | 'call';

/**
 * The id of an answer's output item, derived from the response id so the same answer always gets the
 * same ids: resp_abc → msg_abc_0, rs_abc_1, fc_abc_2, ctc_abc_3 (the number is the item's output index).
 */
export function itemId(responseId: string, kind: ItemKind, outputIndex: number): string {
  const stem = responseId.startsWith('resp_') ? responseId.slice(5) : responseId;
  return `${kind}_${stem}_${outputIndex}`;
}

/**
 * The Responses API's usage object, normalised: input_tokens already include cached ones and
 * output_tokens include reasoning ones, as the IR counts them. Undefined when there is none, a count is
 * missing, or a count is not believable (the call is then billed by Sluice's own count).
 */
export function responsesUsage(usage: unknown): IrUsage | undefined {
  if (!isRecord(usage) || usage.input_tokens == null || usage.output_tokens == null) return undefined;
  const inputDetails = isRecord(usage.input_tokens_details) ? usage.input_tokens_details : {};
  const outputDetails = isRecord(usage.output_tokens_details) ? usage.output_tokens_details : {};
  const counts = trustedUsage({
    prompt: usage.input_tokens,
    completion: usage.output_tokens,
    cached: inputDetails.cached_tokens,
  });
  const cacheWrite = upstreamTokenCount(inputDetails.cache_write_tokens);
  const reasoning = upstreamTokenCount(outputDetails.reasoning_tokens);
  if (counts === undefined || cacheWrite === null || reasoning === null) return undefined;
  return {
    promptTokens: counts.promptTokens,
    completionTokens: counts.completionTokens,
    cachedTokens: counts.cachedTokens,
    cacheWriteTokens:
      inputDetails.cache_write_tokens == null
        ? undefined
        : Math.min(cacheWrite, counts.promptTokens - counts.cachedTokens),
    reasoningTokens:
      outputDetails.reasoning_tokens == null ? undefined : Math.min(reasoning, counts.completionTokens),
  };
}

/** IR usage as the Responses API reports it (ResponseUsage in the openai SDK). */
export const encodeUsage = (usage: IrUsage): Json => ({
  input_tokens: usage.promptTokens,
  input_tokens_details: {
    cached_tokens: usage.cachedTokens,
    cache_write_tokens: usage.cacheWriteTokens ?? 0,
  },
  output_tokens: usage.completionTokens,
  output_tokens_details: { reasoning_tokens: usage.reasoningTokens ?? 0 },
  total_tokens: usage.promptTokens + usage.completionTokens,
});

export type ResponseStatus = 'completed' | 'incomplete';
export type IncompleteReason = 'max_output_tokens' | 'content_filter';

/**
 * A Response object with every field the openai SDK's `Response` type requires, in one order.
 * Sluice does not echo the request's settings back (it has only the answer), so temperature and top_p
 * are null and tools empty, as the types allow.
 */
export function responseObject(
  identity: StreamIdentity,
  status: ResponseStatus | 'in_progress',
  incompleteReason: IncompleteReason | undefined,
  output: Json[],
  usage: IrUsage | undefined,
): Json {
  return {
    id: identity.id.startsWith('resp_') ? identity.id : `resp_${identity.id}`,
    object: 'response',
    created_at: identity.created,
    status,
    error: null,
    incomplete_details: incompleteReason === undefined ? null : { reason: incompleteReason },
    instructions: null,
    max_output_tokens: null,
    model: identity.model,
    output,
    parallel_tool_calls: true,
    previous_response_id: null,
    temperature: null,
    tool_choice: 'auto',
    tools: [],
    top_p: null,
    metadata: {},
    usage: usage === undefined ? null : encodeUsage(usage),
  };
}

export const outputText = (text: string): Json => ({ type: 'output_text', text, annotations: [] });

export const messageItem = (id: string, status: string, text: string | undefined): Json => ({
  id,
  type: 'message',
  status,
  role: 'assistant',
  content: text === undefined ? [] : [outputText(text)],
});

export const reasoningItem = (id: string, text: string, signature: string | undefined): Json => ({
  id,
  type: 'reasoning',
  summary: text === '' ? [] : [{ type: 'summary_text', text }],
  encrypted_content: signature ?? null,
});

/** A function call; `namespace` is left out of the JSON when the function is in none. */
export const functionCallItem = (
  id: string,
  status: string,
  callId: string,
  name: string,
  namespace: string | undefined,
  args: string,
): Json => ({ id, type: 'function_call', status, arguments: args, call_id: callId, name, namespace });

/** A call of a custom (free-text) tool (ResponseCustomToolCall in the openai SDK). */
export const customToolCallItem = (
  id: string,
  status: string,
  callId: string,
  name: string,
  namespace: string | undefined,
  input: string,
): Json => ({ id, type: 'custom_tool_call', status, call_id: callId, name, namespace, input });
