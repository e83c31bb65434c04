// OpenAI's POST /v1/responses: a Response object, or with `stream: true` its typed server-sent events
// (`event: <type>` + `data:`, each with a sequence_number): response.created, response.in_progress, per
// output item output_item.added … output_item.done (a reasoning summary, a message's content part and
// text deltas, a function call's argument deltas), then response.completed or response.incomplete.
import {
  baseHeaders,
  nowSeconds,
  sendResult,
  writeFrames,
  type Exchange,
  type StreamFraming,
} from '../exchange.js';
import { argumentPieces } from '../usage.js';
import { planResponses, type ResponsesPlan } from '../usage-responses.js';
import { isRecord } from './input.js';

type Json = Record<string, unknown>;

/** An error in OpenAI's shape naming the offending parameter, as the Responses API words them. */
function sendParamError(ex: Exchange, message: string, param: string, code: string): void {
  ex.res.writeHead(400, baseHeaders(ex, 'application/json'));
  ex.record.status = 400;
  ex.res.end(JSON.stringify({ error: { message, type: 'invalid_request_error', param, code } }));
}

/** The first problem of a request body, as OpenAI reports it; undefined when it can be answered. */
function refusal(body: unknown): { message: string; param: string; code: string } | undefined {
  if (!isRecord(body) || typeof body.model !== 'string' || body.model === '') {
    return {
      message: "Missing required parameter: 'model'.",
      param: 'model',
      code: 'missing_required_parameter',
    };
  }
  if (body.input === undefined && typeof body.previous_response_id !== 'string') {
    return {
      message: "Missing required parameter: 'input'.",
      param: 'input',
      code: 'missing_required_parameter',
    };
  }
  if (body.input !== undefined && typeof body.input !== 'string' && !Array.isArray(body.input)) {
    return {
      message: "Invalid type for 'input': expected a string or an array of items.",
      param: 'input',
      code: 'invalid_type',
    };
  }
  const tools: unknown[] = Array.isArray(body.tools) ? body.tools : [];
  for (const [i, tool] of tools.entries()) {
    const type = isRecord(tool) ? tool.type : undefined;
    // Hosted tools (web_search, file_search, code_interpreter…) run inside OpenAI; the mock cannot.
    if (type !== 'function') {
      return {
        message: `Invalid value: '${String(type)}'. Supported values are: 'function' (the mock upstream runs no hosted tools).`,
        param: `tools[${i}].type`,
        code: 'invalid_value',
      };
    }
    if (!isRecord(tool) || typeof tool.name !== 'string' || tool.name === '') {
      return {
        message: `Missing required parameter: 'tools[${i}].name'.`,
        param: `tools[${i}].name`,
        code: 'missing_required_parameter',
      };
    }
  }
  return undefined;
}

/** An opaque stand-in for a reasoning item's encrypted content (clients hand it back untouched). */
const encrypted = (ex: Exchange): string =>
  Buffer.from(`mock-encrypted-reasoning-${ex.seq}`).toString('base64');

const wantsEncrypted = (body: Json): boolean =>
  Array.isArray(body.include) && body.include.includes('reasoning.encrypted_content');

const summaryText = (text: string) => ({ type: 'summary_text', text });
const outputText = (text: string) => ({ type: 'output_text', annotations: [], logprobs: [], text });

/** The items of the answer, finished: a reasoning item (with reasoning_tokens), then the message or call. */
function outputItems(ex: Exchange, body: Json, plan: ResponsesPlan): Json[] {
  const items: Json[] = [];
  if (plan.reasoning.length > 0) {
    items.push({
      id: `rs_mock${ex.seq}`,
      type: 'reasoning',
      summary: [summaryText(plan.reasoning.join(' '))],
      ...(wantsEncrypted(body) ? { encrypted_content: encrypted(ex) } : {}),
    });
  }
  const answer = plan.answer;
  items.push(
    answer.kind === 'text'
      ? {
          id: `msg_mock${ex.seq}`,
          type: 'message',
          status: plan.incomplete ? 'incomplete' : 'completed',
          content: [outputText(answer.words.join(' '))],
          role: 'assistant',
        }
      : {
          id: `fc_mock${ex.seq}`,
          type: 'function_call',
          status: 'completed',
          arguments: answer.arguments,
          call_id: `call_mock${ex.seq}`,
          name: answer.name,
        },
  );
  return items;
}

/** A Response object echoing the request's settings; `output` and `usage` as given. */
function responseObject(
  ex: Exchange,
  body: Json,
  createdAt: number,
  status: 'in_progress' | 'completed' | 'incomplete',
  output: Json[],
  plan: ResponsesPlan | undefined,
): Json {
  const reasoning = isRecord(body.reasoning) ? body.reasoning : {};
  const response: Json = {
    id: `resp_mock${ex.seq}`,
    object: 'response',
    created_at: createdAt,
    status,
    background: false,
    error: null,
    incomplete_details: status === 'incomplete' ? { reason: 'max_output_tokens' } : null,
    instructions: body.instructions ?? null,
    max_output_tokens: body.max_output_tokens ?? null,
    model: body.model,
    output,
    parallel_tool_calls: body.parallel_tool_calls ?? true,
    previous_response_id: body.previous_response_id ?? null,
    reasoning: { effort: reasoning.effort ?? null, summary: reasoning.summary ?? null },
    service_tier: 'default',
    store: body.store ?? true,
    temperature: body.temperature ?? 1,
    text: body.text ?? { format: { type: 'text' } },
    tool_choice: body.tool_choice ?? 'auto',
    tools: body.tools ?? [],
    top_p: body.top_p ?? 1,
    truncation: body.truncation ?? 'disabled',
    usage: plan === undefined ? null : plan.usage,
    user: body.user ?? null,
    metadata: body.metadata ?? {},
  };
  // An upstream that reports no usage (the no_usage directive) leaves the field out of the finished response.
  if (plan !== undefined && ex.directive.no_usage) delete response.usage;
  return response;
}

/** The reply split into stream pieces: the first word as is, later words with their leading space. */
const pieces = (words: string[]): string[] => words.map((word, i) => (i === 0 ? word : ` ${word}`));

/** The typed events of a streamed answer, each framed and numbered in order. */
function streamFrames(ex: Exchange, body: Json, plan: ResponsesPlan): string[] {
  const frames: string[] = [];
  const emit = (type: string, fields: Json): void => {
    const data = { type, sequence_number: frames.length, ...fields };
    frames.push(`event: ${type}\ndata: ${JSON.stringify(data)}\n\n`);
  };
  const createdAt = nowSeconds();
  const started = responseObject(ex, body, createdAt, 'in_progress', [], undefined);
  emit('response.created', { response: started });
  emit('response.in_progress', { response: started });
  const items = outputItems(ex, body, plan);
  items.forEach((item, index) => {
    const at = { output_index: index };
    const ref = { item_id: item.id, output_index: index };
    if (item.type === 'reasoning') {
      const text = plan.reasoning.join(' ');
      emit('response.output_item.added', { ...at, item: { id: item.id, type: 'reasoning', summary: [] } });
      emit('response.reasoning_summary_part.added', { ...ref, summary_index: 0, part: summaryText('') });
      for (const delta of pieces(plan.reasoning)) {
        emit('response.reasoning_summary_text.delta', { ...ref, summary_index: 0, delta });
      }
      emit('response.reasoning_summary_text.done', { ...ref, summary_index: 0, text });
      emit('response.reasoning_summary_part.done', { ...ref, summary_index: 0, part: summaryText(text) });
    } else if (item.type === 'message' && plan.answer.kind === 'text') {
      const text = plan.answer.words.join(' ');
      const opened = { id: item.id, type: 'message', status: 'in_progress', content: [], role: 'assistant' };
      emit('response.output_item.added', { ...at, item: opened });
      emit('response.content_part.added', { ...ref, content_index: 0, part: outputText('') });
      for (const delta of pieces(plan.answer.words)) {
        emit('response.output_text.delta', { ...ref, content_index: 0, delta, logprobs: [] });
      }
      emit('response.output_text.done', { ...ref, content_index: 0, text, logprobs: [] });
      emit('response.content_part.done', { ...ref, content_index: 0, part: outputText(text) });
    } else if (plan.answer.kind === 'tool') {
      const args = plan.answer.arguments;
      emit('response.output_item.added', {
        ...at,
        item: { ...item, status: 'in_progress', arguments: '' },
      });
      for (const delta of argumentPieces(args)) {
        emit('response.function_call_arguments.delta', { ...ref, delta });
      }
      emit('response.function_call_arguments.done', { ...ref, name: plan.answer.name, arguments: args });
    }
    emit('response.output_item.done', { ...at, item });
  });
  const status = plan.incomplete ? 'incomplete' : 'completed';
  emit(`response.${status}`, { response: responseObject(ex, body, createdAt, status, items, plan) });
  return frames;
}

export async function handleResponses(ex: Exchange): Promise<void> {
  const problem = refusal(ex.body);
  if (problem !== undefined) {
    sendParamError(ex, problem.message, problem.param, problem.code);
    return;
  }
  const body = ex.body as Json;
  const plan = planResponses(body, ex.directive);
  if (body.stream !== true) {
    const status = plan.incomplete ? 'incomplete' : 'completed';
    sendResult(ex, 200, responseObject(ex, body, nowSeconds(), status, outputItems(ex, body, plan), plan));
    return;
  }
  const frames = streamFrames(ex, body, plan);
  const firstDelta = frames.findIndex(
    (frame) =>
      frame.startsWith('event: response.output_text.delta') ||
      frame.startsWith('event: response.function_call_arguments.delta'),
  );
  const framing: StreamFraming = {
    contentType: 'text/event-stream; charset=utf-8',
    // A Responses stream just ends after its last event: there is no [DONE].
    end: '',
    broken: 'event: response.output_text.delta\ndata: {"type":"response.output_text.delta","delta":\n\n',
    brokenAt: firstDelta >= 0 ? firstDelta : 2,
  };
  await writeFrames(ex, frames, framing);
}
