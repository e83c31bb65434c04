// OpenAI-compatible upstream calls: base URL + the endpoint's path, Bearer key, optional organization.
// The client's bytes go out unchanged unless a field has to change (mapped model, stream usage).
import type { IrRequest, RelayMode, UpstreamRequest } from '../../ir/request.js';
import type { ChannelTarget } from '../types.js';

export const OPENAI_PATHS: Record<RelayMode, string> = {
  chat: '/v1/chat/completions',
  completions: '/v1/completions',
};

export interface OpenAiOptions {
  defaultBaseUrl: string;
  /** Whether the vendor accepts stream_options.include_usage (some reject unknown fields). */
  askStreamUsage: boolean;
}

export const joinUrl = (base: string, path: string): string => `${base.replace(/\/+$/, '')}${path}`;

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The body to send: the client's own bytes when nothing needs rewriting. */
export function openaiBody(ir: IrRequest, upstreamModel: string, askStreamUsage = true): Buffer | string {
  const needsUsage = askStreamUsage && ir.stream && !ir.clientWantsUsage;
  const renamed = upstreamModel !== ir.model;
  if (!needsUsage && !renamed && ir.raw) return ir.raw;
  const body: Record<string, unknown> = { ...ir.body, model: upstreamModel };
  if (needsUsage) {
    // Ask for the usage event so billing is exact; it is stripped again for clients that did not ask.
    const given = isRecord(ir.body.stream_options) ? ir.body.stream_options : {};
    body.stream_options = { ...given, include_usage: true };
  }
  return JSON.stringify(body);
}

export function openaiHeaders(channel: ChannelTarget, stream: boolean): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    authorization: `Bearer ${channel.key}`,
    accept: stream ? 'text/event-stream' : 'application/json',
  };
  if (channel.organization !== '') headers['openai-organization'] = channel.organization;
  return headers;
}

export function buildOpenAiRequest(
  ir: IrRequest,
  channel: ChannelTarget,
  upstreamModel: string,
  options: OpenAiOptions,
): UpstreamRequest {
  return {
    url: joinUrl(channel.baseUrl || options.defaultBaseUrl, OPENAI_PATHS[ir.mode]),
    method: 'POST',
    headers: openaiHeaders(channel, ir.stream),
    body: openaiBody(ir, upstreamModel, options.askStreamUsage),
  };
}
