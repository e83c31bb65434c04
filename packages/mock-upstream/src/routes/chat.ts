// POST /v1/chat/completions and the legacy POST /v1/completions, as JSON or as server-sent events.
import { randomInt } from 'node:crypto';
import {
  jsonTemplate,
  nowSeconds,
  sendError,
  sendJson,
  sendStream,
  SLOT,
  type Exchange,
} from '../exchange.js';
import { argumentPieces, planChat, planCompletion } from '../usage.js';
import { isRecord } from './input.js';

const FINGERPRINT = 'fp_mock';

/** The reply split into stream pieces: the first word as is, later words with their leading space. */
const pieces = (words: string[]): string[] => words.map((word, i) => (i === 0 ? word : ` ${word}`));

const wantsUsage = (body: Record<string, unknown>): boolean =>
  isRecord(body.stream_options) && body.stream_options.include_usage === true;

/** OpenAI pads each streamed chat chunk unless the request sets stream_options.include_obfuscation to false. */
const wantsObfuscation = (body: Record<string, unknown>): boolean =>
  !(isRecord(body.stream_options) && body.stream_options.include_obfuscation === false);

const PAD_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * The `obfuscation` field OpenAI appends to a chunk: random characters whose number varies from chunk
 * to chunk, so that the sizes of the events do not give the text away.
 */
function obfuscated(chunk: string): string {
  let pad = '';
  for (let n = randomInt(1, 17); n > 0; n--) pad += PAD_ALPHABET[randomInt(PAD_ALPHABET.length)];
  return `${chunk.slice(0, -1)},"obfuscation":"${pad}"}`;
}

function requireModel(ex: Exchange, body: unknown): body is Record<string, unknown> {
  if (!isRecord(body) || typeof body.model !== 'string' || body.model === '') {
    sendError(ex, 400, 'You must provide a model parameter.');
    return false;
  }
  return true;
}

export async function handleChatCompletions(ex: Exchange): Promise<void> {
  const body = ex.body;
  if (!requireModel(ex, body)) return;
  if (!Array.isArray(body.messages) || body.messages.length === 0) {
    sendError(ex, 400, "'messages' must be a non-empty array.", 'invalid_request_error', 'invalid_value');
    return;
  }
  const plan = planChat(body, ex.directive);
  const id = `chatcmpl-mock${ex.seq}`;
  const created = nowSeconds();
  const head = (object: string) => ({
    id,
    object,
    created,
    model: body.model,
    system_fingerprint: FINGERPRINT,
  });
  const toolCall = {
    id: `call_mock${ex.seq}`,
    type: 'function',
    function: { name: plan.kind === 'tool' ? plan.name : '', arguments: '' },
  };

  if (body.stream !== true) {
    const message =
      plan.kind === 'text'
        ? { role: 'assistant', content: plan.words.join(' '), refusal: null, annotations: [] }
        : {
            role: 'assistant',
            content: null,
            refusal: null,
            annotations: [],
            tool_calls: [{ ...toolCall, function: { name: plan.name, arguments: plan.arguments } }],
          };
    sendJson(ex, 200, {
      ...head('chat.completion'),
      choices: [{ index: 0, message, logprobs: null, finish_reason: plan.finishReason }],
      usage: plan.usage,
      service_tier: 'default',
    });
    return;
  }

  // With include_usage every chunk carries "usage": null and a last chunk with no choices carries the usage.
  const includeUsage = wantsUsage(body);
  const envelope = {
    ...head('chat.completion.chunk'),
    choices: [SLOT],
    ...(includeUsage ? { usage: null } : {}),
  };
  const chunk = jsonTemplate(envelope);
  const pad = wantsObfuscation(body) ? obfuscated : (json: string) => json;
  const choice = (delta: string, finish: string | null = null): string =>
    pad(chunk(`{"index":0,"delta":${delta},"logprobs":null,"finish_reason":${JSON.stringify(finish)}}`));
  const events =
    plan.kind === 'text'
      ? [
          choice('{"role":"assistant","content":"","refusal":null}'),
          ...pieces(plan.words).map((content) => choice(`{"content":${JSON.stringify(content)}}`)),
        ]
      : [
          choice(
            JSON.stringify({ role: 'assistant', content: null, tool_calls: [{ index: 0, ...toolCall }] }),
          ),
          ...argumentPieces(plan.arguments).map((args) =>
            choice(JSON.stringify({ tool_calls: [{ index: 0, function: { arguments: args } }] })),
          ),
        ];
  events.push(choice('{}', plan.finishReason));
  const usageEvent = JSON.stringify({ ...envelope, choices: [], usage: plan.usage });
  await sendStream(ex, events, includeUsage ? usageEvent : undefined);
}

export async function handleCompletions(ex: Exchange): Promise<void> {
  const body = ex.body;
  if (!requireModel(ex, body)) return;
  const plan = planCompletion(body, ex.directive);
  const head = {
    id: `cmpl-mock${ex.seq}`,
    object: 'text_completion',
    created: nowSeconds(),
    model: body.model,
  };
  const choice = (text: string, finish: string | null) => ({
    text,
    index: 0,
    logprobs: null,
    finish_reason: finish,
  });

  if (body.stream !== true) {
    sendJson(ex, 200, {
      ...head,
      choices: [choice(plan.words.join(' '), plan.finishReason)],
      usage: plan.usage,
    });
    return;
  }
  const includeUsage = wantsUsage(body);
  const envelope = { ...head, choices: [SLOT], ...(includeUsage ? { usage: null } : {}) };
  const chunk = jsonTemplate(envelope);
  const events = [
    ...pieces(plan.words).map((text) => chunk(JSON.stringify(choice(text, null)))),
    chunk(JSON.stringify(choice('', plan.finishReason))),
  ];
  const usageEvent = JSON.stringify({ ...envelope, choices: [], usage: plan.usage });
  await sendStream(ex, events, includeUsage ? usageEvent : undefined);
}
