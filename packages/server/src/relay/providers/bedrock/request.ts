// The InvokeModel call of a Bedrock channel: POST {origin}/model/{modelId}/invoke (or
// /invoke-with-response-stream) with the Anthropic Messages body less `model` and `stream`, plus
// Bedrock's `anthropic_version` and the client's beta flags as `anthropic_beta`. Authentication is a
// bearer API key here; AWS access keys are signed later (sign.ts), over the request as built here.
// A key that fits neither format is refused when the call is signed (the adapter's signRequest), so
// the pipeline can judge it the channel's fault; the call built for it carries no credential.
import type { ChatRequest } from '../../ir/chat.js';
import type { IrRequest, UpstreamRequest } from '../../ir/request.js';
import { anthropicCodec } from '../../wire/anthropic/index.js';
import { openAiChatCodec } from '../../wire/openai/index.js';
import { anthropicPassThroughBody } from '../anthropic/index.js';
import type { ChannelTarget } from '../types.js';
import type { BedrockCredentials } from './key.js';
import { readBedrockKey } from './key.js';
import { bedrockModelId } from './models.js';

type Json = Record<string, unknown>;

/** The Messages API version Bedrock takes, in the body (it has no anthropic-version header). */
export const BEDROCK_ANTHROPIC_VERSION = 'bedrock-2023-05-31';

/**
 * The scheme, host and port calls go to: the channel's base_url's (a proxy, a gateway, a test's fake)
 * when set, else the region's bedrock-runtime endpoint. The path is always Bedrock's own.
 */
export function bedrockOrigin(channel: ChannelTarget, region: string): string {
  return channel.baseUrl.trim() === ''
    ? `https://bedrock-runtime.${region}.amazonaws.com`
    : new URL(channel.baseUrl.trim()).origin;
}

/** Inference profile ids and ARNs contain ':' and '/': the id is one encoded path segment. */
export const invokeUrl = (origin: string, modelId: string, stream: boolean): string =>
  `${origin}/model/${encodeURIComponent(modelId)}/${stream ? 'invoke-with-response-stream' : 'invoke'}`;

/** The client's anthropic-beta header as Bedrock's body field (a list), or undefined. */
function betaFlags(ir: IrRequest): string[] | undefined {
  const header = ir.vendorHeaders?.['anthropic-beta'];
  if (header === undefined) return undefined;
  const flags = header
    .split(',')
    .map((flag) => flag.trim())
    .filter((flag) => flag !== '');
  return flags.length > 0 ? flags : undefined;
}

/** A Messages body as Bedrock takes it: version and betas first, then the body less model and stream. */
function bedrockBody(ir: IrRequest, messages: Readonly<Json>): string {
  const version = BEDROCK_ANTHROPIC_VERSION;
  const betas = betaFlags(ir);
  return JSON.stringify(
    Object.assign({ anthropic_version: version, anthropic_beta: betas }, messages, {
      model: undefined,
      stream: undefined,
      anthropic_version: version,
      anthropic_beta: betas,
    }),
  );
}

/**
 * The neutral request to encode: the converted call's, or for an OpenAI-shaped request built without
 * one (the channel test's probe) the decoded OpenAI body, with the hold's output limit.
 */
function neutralRequest(ir: IrRequest, chat: ChatRequest | undefined): ChatRequest {
  if (chat) return chat;
  const decoded = openAiChatCodec.decodeRequest(ir.body);
  const limit = ir.outputLimit ?? decoded.maxOutputTokens;
  return Object.assign(decoded, { model: ir.model, stream: ir.stream, maxOutputTokens: limit });
}

/** The Messages body: a Claude client's own (model and output limit as the Anthropic adapter sets them), or encoded. */
function messagesBody(ir: IrRequest, upstreamModel: string, chat: ChatRequest | undefined): Readonly<Json> {
  if (!chat && ir.wire === 'anthropic') {
    // Only a hold's output limit changes the client's body; the Anthropic adapter's rules keep any
    // thinking budget valid under it (rare: Claude clients always send max_tokens).
    if (ir.outputLimit === undefined) return ir.body;
    return JSON.parse(anthropicPassThroughBody(ir, upstreamModel).toString()) as Json;
  }
  const request = neutralRequest(ir, chat);
  return anthropicCodec.encodeRequest(request, {
    model: upstreamModel,
    maxOutputTokens: request.maxOutputTokens,
    streamUsage: true,
  });
}

/**
 * `accept` names the model's answer type (JSON), also for a stream: the answer's framing is the
 * operation's own (event-stream), and Anthropic's Bedrock client sends application/json for both.
 */
export function bedrockHeaders(
  credentials: BedrockCredentials | undefined,
  url: string,
): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  // SigV4 signs the host the request goes to; undici sends this same value.
  if (credentials?.kind === 'sigv4') headers.host = new URL(url).host;
  else if (credentials?.kind === 'api-key') headers.authorization = `Bearer ${credentials.apiKey}`;
  return headers;
}

/** A key's region, or the first Bedrock region for a key that has none (refused when signed). */
const FALLBACK_REGION = 'us-east-1';

/** The call, unsigned. */
export function buildBedrockRequest(
  ir: IrRequest,
  channel: ChannelTarget,
  upstreamModel: string,
  chat?: ChatRequest,
): UpstreamRequest {
  const credentials = readBedrockKey(channel.key);
  const region = credentials?.region ?? FALLBACK_REGION;
  const url = invokeUrl(bedrockOrigin(channel, region), bedrockModelId(upstreamModel), ir.stream);
  return {
    url,
    method: 'POST',
    headers: bedrockHeaders(credentials, url),
    body: bedrockBody(ir, messagesBody(ir, upstreamModel, chat)),
  };
}
