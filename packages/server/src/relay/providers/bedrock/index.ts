// Type 33: Claude on AWS Bedrock, through InvokeModel / InvokeModelWithResponseStream. The body is
// the Anthropic Messages body (a Claude client's own, or encoded from the neutral request), answers
// are Anthropic Messages JSON, streams are AWS event-stream framing around Anthropic's events. The key
// is AccessKeyId|SecretAccessKey|Region (SigV4, signed as the last step before sending) or
// APIKey|Region (a Bedrock API key, as a bearer token).
import type { UpstreamRequest } from '../../ir/request.js';
import { parseAnthropicResponse } from '../anthropic/index.js';
import type { ChannelTarget, ProviderAdapter, UpstreamErrorInfo } from '../types.js';
import { parseBedrockKey } from './key.js';
import { buildBedrockRequest } from './request.js';
import { loadEventStreamCodec } from './event-stream.js';
import { signBedrockRequest } from './sign.js';
import { bedrockStreamParser } from './stream.js';
import { isRecord } from '../../wire/json.js';

const MAX_ERROR_TEXT = 500;

/**
 * A Bedrock error body: {"message": "…"} (the exception's name travels in the x-amzn-errortype header,
 * which this contract does not see; some AWS front ends put it in the body as `__type` or `code`).
 * Bedrock-served Claude may also answer an Anthropic-shaped error.
 */
export function parseBedrockError(status: number, body: Buffer): UpstreamErrorInfo {
  const text = body.toString('utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (isRecord(parsed)) {
    const named = parsed.__type ?? parsed.code;
    // "com.amazon.coral.service#UnrecognizedClientException", "ThrottlingException:http://…" → the name.
    const code =
      typeof named === 'string' && named !== ''
        ? ((named.split(':')[0] ?? '').split('#').pop() ?? null)
        : null;
    const inner = isRecord(parsed.error) ? parsed.error : undefined;
    const message = parsed.message ?? parsed.Message ?? inner?.message;
    if (typeof message === 'string' && message !== '') {
      const type = typeof inner?.type === 'string' ? inner.type : 'upstream_error';
      return { message, type, code: code ?? (inner ? type : null) };
    }
  }
  const trimmed = text.trim().slice(0, MAX_ERROR_TEXT);
  return {
    message: trimmed ? `upstream answered ${status}: ${trimmed}` : `upstream answered ${status}`,
    type: 'upstream_error',
    code: null,
  };
}

/**
 * Signs a call made with AWS access keys; a call with a Bedrock API key goes as built. Rejects a key
 * that fits neither format (BedrockKeyError names the formats).
 */
async function signRequest(request: UpstreamRequest, channel: ChannelTarget): Promise<UpstreamRequest> {
  const credentials = parseBedrockKey(channel.key);
  // Every Bedrock call passes here before its answer: the stream's framing codec is ready by then.
  await loadEventStreamCodec();
  if (credentials.kind !== 'sigv4') return request;
  return signBedrockRequest(request, credentials);
}

export const bedrockAdapter: ProviderAdapter = {
  name: 'bedrock',
  dialects: ['anthropic'],
  // The real endpoint depends on the key's region (bedrock-runtime.{region}.amazonaws.com).
  defaultBaseUrl: 'https://bedrock-runtime.us-east-1.amazonaws.com',
  supports: (mode) => mode === 'chat',
  buildRequest: buildBedrockRequest,
  signRequest,
  parseResponse: (_ir, body, chat) => parseAnthropicResponse(body, chat),
  parseError: parseBedrockError,
  createStreamParser: (_ir, chat) => bedrockStreamParser(chat),
};
