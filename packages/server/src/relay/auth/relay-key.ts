// Where a relay caller's key comes from (OpenAI, Claude, Gemini and Midjourney clients each put it
// somewhere else) and how `sk-<key>-<channelId>` pins a channel.
import type { IncomingHttpHeaders } from 'node:http';

const header = (headers: IncomingHttpHeaders, name: string): string | undefined => {
  const value = headers[name];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
};

/** The key as the client sent it, from the first place that has one. */
export function extractRelayKey(headers: IncomingHttpHeaders, query: unknown): string | undefined {
  const authorization = header(headers, 'authorization');
  if (authorization) return authorization.replace(/^Bearer(\s+|$)/i, '').trim() || undefined;
  const named =
    header(headers, 'x-api-key') ?? header(headers, 'x-goog-api-key') ?? header(headers, 'mj-api-secret');
  if (named) return named;
  if (typeof query === 'object' && query !== null) {
    const key = (query as Record<string, unknown>).key;
    if (typeof key === 'string' && key.trim() !== '') return key.trim();
  }
  return undefined;
}

export interface ParsedKey {
  /** The stored form: without "sk-" and without a channel suffix. */
  key: string;
  /** Set by `sk-<key>-<channelId>`. */
  channelId?: number;
}

export function parseRelayKey(value: string): ParsedKey {
  const bare = value.startsWith('sk-') ? value.slice(3) : value;
  const dash = bare.indexOf('-');
  if (dash === -1) return { key: bare };
  const suffix = bare.slice(dash + 1);
  const channelId = /^\d+$/.test(suffix) ? Number(suffix) : Number.NaN;
  // A suffix that is not a channel id is part of no valid key: keep it so the lookup fails.
  return Number.isSafeInteger(channelId) && channelId > 0
    ? { key: bare.slice(0, dash), channelId }
    : { key: bare };
}
