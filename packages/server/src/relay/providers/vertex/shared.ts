// What Vertex calls share whatever the model: the access token as a bearer, and errors that come in
// Google's shape (authentication, quotas, the platform) or in Anthropic's (Claude models' own).
import { parseAnthropicError } from '../anthropic/index.js';
import { parseGeminiError } from '../gemini/response.js';
import type { ChannelTarget, UpstreamErrorInfo } from '../types.js';

export function vertexHeaders(channel: ChannelTarget, stream: boolean): Record<string, string> {
  if (channel.credential === undefined) {
    // A programming error: the pipeline exchanges the key (adapter.credentials) before building calls.
    throw new Error('the Vertex access token is missing: the key was not exchanged before the call');
  }
  return {
    'content-type': 'application/json',
    accept: stream ? 'text/event-stream' : 'application/json',
    authorization: `Bearer ${channel.credential}`,
  };
}

/** Whether an error body is Anthropic's `{"type":"error","error":{"type",…}}` (Google's has no type). */
function isAnthropicError(body: Buffer): boolean {
  try {
    const parsed: unknown = JSON.parse(body.toString('utf8'));
    if (typeof parsed !== 'object' || parsed === null) return false;
    const error: unknown = (parsed as Record<string, unknown>).error;
    return (
      typeof error === 'object' &&
      error !== null &&
      typeof (error as Record<string, unknown>).type === 'string'
    );
  } catch {
    return false;
  }
}

/** Anthropic's error shape when the body has it (a Claude model's own errors), else Google's. */
export function parseVertexError(status: number, body: Buffer): UpstreamErrorInfo {
  return isAnthropicError(body) ? parseAnthropicError(status, body) : parseGeminiError(status, body);
}
