// The relay's internal request: what every inbound format is turned into and every provider adapter
// builds its upstream call from. It carries the client's body in the client's own dialect, so a call
// whose upstream speaks that dialect needs no conversion at all; a chat call to an upstream of another
// dialect is converted through the neutral chat request (ir/chat.ts) by the dialects' codecs.

/** What kind of call this is; one per OpenAI endpoint the relay serves. */
export type RelayMode =
  | 'chat'
  | 'completions'
  | 'embeddings'
  | 'images'
  | 'speech'
  | 'transcriptions'
  | 'translations'
  | 'moderations'
  | 'rerank';

import type { ChatWire } from '../wire/types.js';

export interface IrRequest {
  mode: RelayMode;
  /** The model the client asked for (before the channel's model mapping); billing uses this name. */
  model: string;
  stream: boolean;
  /** The client asked for the usage event of a stream (stream_options.include_usage). */
  clientWantsUsage: boolean;
  /** The client's limit on generated tokens, when it set one. */
  maxTokens?: number;
  /**
   * The output limit the upstream must be given instead of the client's: what the caller's balance
   * affords, or the default hold when the client set none. Undefined: forward the client's limit.
   */
  outputLimit?: number;
  /** The request in the client's dialect (the inbound format's wire). Adapters copy it; nobody mutates it. */
  body: Readonly<Record<string, unknown>>;
  /** The client's dialect when it is not OpenAI Chat (the default): what `body` and `raw` are written in. */
  wire?: ChatWire;
  /** The client's exact bytes: forwarded as they are to an upstream of the same dialect when unchanged. */
  raw?: Buffer;
  /**
   * Client headers an upstream of the same vendor must get (Anthropic's version and beta flags), by
   * lower-case name.
   */
  vendorHeaders?: Readonly<Record<string, string>>;
  /** The content type of `raw` when it is not JSON (a multipart upload, boundary included). */
  contentType?: string;
}

/** An upstream HTTP call, as a pure adapter describes it. */
export interface UpstreamRequest {
  /** Absolute URL. */
  url: string;
  method: 'POST' | 'GET';
  headers: Record<string, string>;
  body: Buffer | string;
}
