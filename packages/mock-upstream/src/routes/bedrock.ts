// AWS Bedrock's InvokeModel (POST /model/{modelId}/invoke) and InvokeModelWithResponseStream
// (/invoke-with-response-stream) for Claude: the Anthropic Messages body without `model` and `stream`,
// with `anthropic_version: "bedrock-2023-05-31"` and betas as `anthropic_beta`. Answers are those of
// the Anthropic route (anthropic.ts); a stream is AWS event-stream framing whose `chunk` events carry
// {"bytes": base64(<Anthropic event>)}, and a failure mid-stream is an exception message. The control
// plane's ListFoundationModels (GET /foundation-models) lists a slice of AWS's catalogue.
import { EventStreamCodec } from '@smithy/core/event-streams';
import type { MessageHeaders } from '@smithy/core/event-streams';
import { fromUtf8, toUtf8 } from '@smithy/core/serde';
import { sendResult, writeFrames, type Exchange, type Frame, type StreamFraming } from '../exchange.js';
import { planAnthropic } from '../usage-anthropic.js';
import { sendBedrockError } from '../vendor-errors.js';
import { anthropicMessage, anthropicStreamEvents } from './anthropic.js';
import { checkMessagesBody } from './anthropic-checks.js';
import { isRecord } from './input.js';

export const BEDROCK_ANTHROPIC_VERSION = 'bedrock-2023-05-31';
export const EVENT_STREAM_CONTENT_TYPE = 'application/vnd.amazon.eventstream';

/** /model/{modelId}/invoke[-with-response-stream]: the id is one (percent-encoded) path segment. */
const INVOKE_PATH = /^\/model\/([^/]+)\/(invoke|invoke-with-response-stream)$/;

/** The model and the kind of call a Bedrock runtime path names. */
export function bedrockAction(
  method: string,
  path: string,
): { modelId: string; stream: boolean } | undefined {
  const match = method === 'POST' ? INVOKE_PATH.exec(path) : null;
  if (!match) return undefined;
  let modelId: string;
  try {
    modelId = decodeURIComponent(match[1] as string);
  } catch {
    return undefined;
  }
  return { modelId, stream: match[2] === 'invoke-with-response-stream' };
}

/** Bedrock answers with Anthropic's model name: the id without provider, region prefix and version. */
const anthropicName = (modelId: string): string =>
  modelId.replace(/^(?:[a-z-]+\.)?anthropic\./, '').replace(/-v\d+(?::\d+)?$/, '');

const codec = new EventStreamCodec(toUtf8, fromUtf8);

const str = (value: string) => ({ type: 'string' as const, value });

const encodeMessage = (headers: MessageHeaders, payload: unknown): Uint8Array =>
  codec.encode({ headers, body: fromUtf8(JSON.stringify(payload)) });

/**
 * A `chunk` event: the Anthropic event base64-encoded in `bytes`, and `p`, the padding Bedrock adds to
 * every chunk so sizes do not tell the content (clients ignore it).
 */
function chunkFrame(event: Record<string, unknown>, seq: number): Uint8Array {
  const bytes = Buffer.from(JSON.stringify(event)).toString('base64');
  return encodeMessage(
    { ':event-type': str('chunk'), ':content-type': str('application/json'), ':message-type': str('event') },
    { bytes, p: 'abcdefghijklmnopqrstuvwxyz'.slice(0, 1 + (seq % 26)) },
  );
}

/** How Bedrock reports a model failure inside a stream (the model's own status and message travel along). */
const STREAM_EXCEPTION = encodeMessage(
  {
    ':exception-type': str('modelStreamErrorException'),
    ':content-type': str('application/json'),
    ':message-type': str('exception'),
  },
  {
    message: 'The model stream was interrupted: Overloaded',
    originalStatusCode: 529,
    originalMessage: 'Overloaded',
  },
);

/** The same frame with its message checksum broken: what `malformed` sends. */
function corrupted(frame: Uint8Array): Uint8Array {
  const copy = Buffer.from(frame);
  copy[copy.length - 1] = (copy[copy.length - 1] ?? 0) ^ 0xff;
  return copy;
}

/**
 * The Anthropic Messages body inside a Bedrock one, checked as Anthropic checks it (Bedrock passes its
 * validation messages on), or the refusal. `model` and `stream` belong in the URL, not the body.
 */
function messagesBody(
  body: unknown,
  modelId: string,
): { ok: true; body: Record<string, unknown> } | { ok: false; message: string } {
  if (!isRecord(body))
    return {
      ok: false,
      message:
        'Malformed input request: expected type: JSONObject, please reformat your input and try again.',
    };
  const { anthropic_version: version, anthropic_beta: beta, ...rest } = body;
  if (version === undefined) {
    return {
      ok: false,
      message:
        'Malformed input request: #: required key [anthropic_version] not found, please reformat your input and try again.',
    };
  }
  if (version !== BEDROCK_ANTHROPIC_VERSION)
    return { ok: false, message: `anthropic_version: Input should be '${BEDROCK_ANTHROPIC_VERSION}'` };
  if (beta !== undefined && !(Array.isArray(beta) && beta.every((flag) => typeof flag === 'string'))) {
    return { ok: false, message: 'anthropic_beta: Input should be a valid list of strings' };
  }
  for (const field of ['model', 'stream']) {
    if (field in rest) return { ok: false, message: `${field}: Extra inputs are not permitted` };
  }
  const headers =
    beta && beta.length > 0
      ? { 'anthropic-version': '2023-06-01', 'anthropic-beta': beta.join(',') }
      : { 'anthropic-version': '2023-06-01' };
  const checked = checkMessagesBody({ model: modelId, ...rest }, headers, 'create');
  return checked.ok ? { ok: true, body: checked.body } : checked;
}

export async function handleInvoke(ex: Exchange, modelId: string, stream: boolean): Promise<void> {
  const checked = messagesBody(ex.body, modelId);
  if (!checked.ok) {
    sendBedrockError(ex, 400, checked.message, 'ValidationException');
    return;
  }
  const plan = planAnthropic(checked.body, ex.directive);
  const head = {
    id: `msg_bdrk_mock${ex.seq}`,
    type: 'message',
    role: 'assistant',
    model: anthropicName(modelId),
  };
  if (!stream) {
    sendResult(ex, 200, anthropicMessage(ex, plan, head));
    return;
  }
  const events = anthropicStreamEvents(ex, plan, head);
  const last = events[events.length - 1];
  if (last?.type === 'message_stop') {
    // Bedrock adds its own count of the call to the last event.
    last['amazon-bedrock-invocationMetrics'] = {
      inputTokenCount: plan.usage.input_tokens,
      outputTokenCount: plan.usage.output_tokens,
      invocationLatency: 120,
      firstByteLatency: 40,
    };
  }
  const frames: Frame[] = events.map((event, i) => chunkFrame(event, i));
  const firstDelta = events.findIndex((event) => event.type === 'content_block_delta');
  if (ex.directive.stream_error) {
    const after =
      firstDelta >= 0 ? firstDelta : events.findIndex((event) => event.type === 'content_block_start');
    frames.splice(after + 1, frames.length, STREAM_EXCEPTION);
  }
  const brokenAt = firstDelta >= 0 ? firstDelta : 1;
  const framing: StreamFraming = {
    contentType: EVENT_STREAM_CONTENT_TYPE,
    end: '',
    broken: corrupted(frames[brokenAt] as Uint8Array),
    brokenAt,
  };
  await writeFrames(ex, frames, framing);
}

/** ListFoundationModels, on Bedrock's control plane (bedrock.{region}.amazonaws.com). */
export const FOUNDATION_MODELS_PATH = '/foundation-models';

interface FoundationModel {
  modelId: string;
  modelName: string;
  providerName: string;
  outputModalities: string[];
  inferenceTypesSupported: string[];
  status?: 'ACTIVE' | 'LEGACY';
}

const claude = (
  modelId: string,
  modelName: string,
  inferenceTypesSupported: string[],
  status: FoundationModel['status'] = 'ACTIVE',
): FoundationModel => ({
  modelId,
  modelName,
  providerName: 'Anthropic',
  outputModalities: ['TEXT'],
  inferenceTypesSupported,
  status,
});

/**
 * A slice of AWS's catalogue: Claude models as on-demand ids, one only callable through an inference
 * profile, a provisioned-throughput-only variant (…:200k) and a legacy id, beside other providers'.
 */
const FOUNDATION_MODELS: readonly FoundationModel[] = [
  claude('anthropic.claude-3-haiku-20240307-v1:0', 'Claude 3 Haiku', ['ON_DEMAND']),
  claude('anthropic.claude-3-haiku-20240307-v1:0:200k', 'Claude 3 Haiku', ['PROVISIONED']),
  claude('anthropic.claude-3-5-sonnet-20241022-v2:0', 'Claude 3.5 Sonnet v2', [
    'ON_DEMAND',
    'INFERENCE_PROFILE',
  ]),
  claude('anthropic.claude-sonnet-4-20250514-v1:0', 'Claude Sonnet 4', ['INFERENCE_PROFILE']),
  claude('anthropic.claude-instant-v1', 'Claude Instant', ['ON_DEMAND'], 'LEGACY'),
  {
    modelId: 'amazon.nova-pro-v1:0',
    modelName: 'Nova Pro',
    providerName: 'Amazon',
    outputModalities: ['TEXT'],
    inferenceTypesSupported: ['ON_DEMAND', 'INFERENCE_PROFILE'],
  },
  {
    modelId: 'amazon.titan-embed-text-v2:0',
    modelName: 'Titan Text Embeddings V2',
    providerName: 'Amazon',
    outputModalities: ['EMBEDDING'],
    inferenceTypesSupported: ['ON_DEMAND'],
  },
  {
    modelId: 'meta.llama3-70b-instruct-v1:0',
    modelName: 'Llama 3 70B Instruct',
    providerName: 'Meta',
    outputModalities: ['TEXT'],
    inferenceTypesSupported: ['ON_DEMAND'],
  },
];

const INFERENCE_TYPES = new Set(['ON_DEMAND', 'PROVISIONED']);
const OUTPUT_MODALITIES = new Set(['TEXT', 'IMAGE', 'EMBEDDING']);

/**
 * GET /foundation-models: `{ modelSummaries }` (FoundationModelSummary), filtered by `byProvider`
 * (any case), `byOutputModality` and `byInferenceType`; an unknown enum value → ValidationException.
 */
export function handleFoundationModels(ex: Exchange): void {
  const { byProvider, byOutputModality, byInferenceType } = ex.record.query;
  if (byInferenceType !== undefined && !INFERENCE_TYPES.has(byInferenceType)) {
    sendBedrockError(
      ex,
      400,
      `1 validation error detected: Value '${byInferenceType}' at 'byInferenceType' failed to satisfy constraint: Member must satisfy enum value set: [ON_DEMAND, PROVISIONED]`,
      'ValidationException',
    );
    return;
  }
  if (byOutputModality !== undefined && !OUTPUT_MODALITIES.has(byOutputModality)) {
    sendBedrockError(
      ex,
      400,
      `1 validation error detected: Value '${byOutputModality}' at 'byOutputModality' failed to satisfy constraint: Member must satisfy enum value set: [TEXT, IMAGE, EMBEDDING]`,
      'ValidationException',
    );
    return;
  }
  const models = FOUNDATION_MODELS.filter(
    (m) =>
      (byProvider === undefined || m.providerName.toLowerCase() === byProvider.toLowerCase()) &&
      (byOutputModality === undefined || m.outputModalities.includes(byOutputModality)) &&
      (byInferenceType === undefined || m.inferenceTypesSupported.includes(byInferenceType)),
  );
  sendResult(ex, 200, {
    modelSummaries: models.map((m) => ({
      modelArn: `arn:aws:bedrock:us-east-1::foundation-model/${m.modelId}`,
      modelId: m.modelId,
      modelName: m.modelName,
      providerName: m.providerName,
      inputModalities: ['TEXT'],
      outputModalities: m.outputModalities,
      responseStreamingSupported: m.outputModalities.includes('TEXT'),
      customizationsSupported: [],
      inferenceTypesSupported: m.inferenceTypesSupported,
      modelLifecycle: { status: m.status ?? 'ACTIVE' },
    })),
  });
}
