// What Anthropic refuses in a Messages or count_tokens body, with the messages it answers. The API rejects
// unknown fields outright, so the relay must never send one; these checks make a test fail when it does.
import type { IncomingHttpHeaders } from 'node:http';
import { isRecord } from './input.js';

/**
 * Body fields of POST /v1/messages (MessageCreateParams of the official SDK; `user_profile_id` and
 * `workspace_id` are header parameters there, not body fields).
 */
const CREATE_FIELDS = new Set([
  'model',
  'messages',
  'max_tokens',
  'cache_control',
  'container',
  'diagnostics',
  'inference_geo',
  'metadata',
  'output_config',
  'service_tier',
  'speed',
  'stop_sequences',
  'stream',
  'system',
  'thinking',
  'tool_choice',
  'tools',
]);

/** Sampling controls: accepted under anthropic-version 2023-06-01, removed from API version 2026-10-21. */
const SAMPLING_FIELDS = new Set(['temperature', 'top_p', 'top_k']);

/** Body fields of POST /v1/messages/count_tokens (MessageCountTokensParams). */
const COUNT_FIELDS = new Set([
  'model',
  'messages',
  'cache_control',
  'output_config',
  'speed',
  'system',
  'thinking',
  'tool_choice',
  'tools',
]);

/** Fields of the beta Messages API: accepted only when the request opts into a beta (anthropic-beta header). */
const BETA_FIELDS = new Set([
  'context_management',
  'mcp_servers',
  'output_format',
  'fallbacks',
  'fallback_credit_token',
]);

/** The API version that dropped temperature, top_p and top_k (and that the 1.x SDKs send). */
export const API_VERSION_2026 = '2026-10-21';

const THINKING_DOCS = 'https://platform.claude.com/docs/en/build-with-claude/extended-thinking';

export type CheckedBody = { ok: true; body: Record<string, unknown> } | { ok: false; message: string };

const refuse = (message: string): CheckedBody => ({ ok: false, message });

interface Allowed {
  known: Set<string>;
  sampling: boolean;
  beta: boolean;
}

function unknownField(body: Record<string, unknown>, allowed: Allowed): string | undefined {
  for (const field of Object.keys(body)) {
    if (allowed.known.has(field)) continue;
    if (allowed.sampling && SAMPLING_FIELDS.has(field)) continue;
    if (allowed.beta && BETA_FIELDS.has(field)) continue;
    return field;
  }
  return undefined;
}

const isInteger = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value);

/** Extended thinking's rules: a budget of at least 1024, below max_tokens, and no temperature but 1. */
function thinkingProblem(body: Record<string, unknown>, create: boolean): string | undefined {
  const thinking = body.thinking;
  if (!isRecord(thinking) || (thinking.type !== 'enabled' && thinking.type !== 'adaptive')) return undefined;
  if (thinking.type === 'enabled') {
    const budget = thinking.budget_tokens;
    if (budget === undefined) return 'thinking.enabled.budget_tokens: Field required';
    if (!isInteger(budget)) return 'thinking.enabled.budget_tokens: Input should be a valid integer';
    if (budget < 1024) return 'thinking.enabled.budget_tokens: Input should be greater than or equal to 1024';
    if (create && isInteger(body.max_tokens) && budget >= body.max_tokens) {
      return `\`max_tokens\` must be greater than \`thinking.budget_tokens\`. Please consult our documentation at ${THINKING_DOCS}#max-tokens-and-context-window-size`;
    }
  }
  if (body.temperature !== undefined && body.temperature !== 1) {
    return `\`temperature\` may only be set to 1 when thinking is enabled or in adaptive mode. Please consult our documentation at ${THINKING_DOCS}`;
  }
  return undefined;
}

/**
 * Checks a Messages (`create`) or count_tokens body as Anthropic does; the first problem found is answered.
 * Under API version 2026-10-21 temperature, top_p and top_k are refused like any unknown field.
 */
export function checkMessagesBody(
  body: unknown,
  headers: IncomingHttpHeaders,
  kind: 'create' | 'count',
): CheckedBody {
  if (!isRecord(body)) return refuse('body: Input should be a valid dictionary');
  const create = kind === 'create';
  const extra = unknownField(body, {
    known: create ? CREATE_FIELDS : COUNT_FIELDS,
    sampling: create && headers['anthropic-version'] !== API_VERSION_2026,
    beta: headers['anthropic-beta'] !== undefined,
  });
  if (extra !== undefined) return refuse(`${extra}: Extra inputs are not permitted`);
  if (body.model === undefined) return refuse('model: Field required');
  if (typeof body.model !== 'string') return refuse('model: Input should be a valid string');
  if (create) {
    if (body.max_tokens === undefined) return refuse('max_tokens: Field required');
    if (!isInteger(body.max_tokens)) return refuse('max_tokens: Input should be a valid integer');
    if (body.max_tokens < 1) return refuse('max_tokens: Input should be greater than or equal to 1');
  }
  if (body.messages === undefined) return refuse('messages: Field required');
  if (!Array.isArray(body.messages)) return refuse('messages: Input should be a valid list');
  if (body.messages.length === 0) return refuse('messages: at least one message is required');
  // Newer Claude models take one sampling control or the other, not both.
  if (create && body.temperature !== undefined && body.top_p !== undefined) {
    return refuse('`temperature` and `top_p` cannot both be specified for this model. Please use only one.');
  }
  const thinking = thinkingProblem(body, create);
  if (thinking !== undefined) return refuse(thinking);
  return { ok: true, body };
}
