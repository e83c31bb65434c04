// The relay's internal request: what every inbound format is turned into and every provider adapter
// builds its upstream call from. Its body is the OpenAI wire shape of the request's mode (the most
// widely spoken dialect), so an OpenAI client talking to an OpenAI-compatible upstream needs no
// conversion at all.

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
  /** The request in the OpenAI wire shape of `mode`. Adapters copy it; nobody mutates it. */
  body: Readonly<Record<string, unknown>>;
  /** The client's exact bytes when they are that OpenAI shape: forwarded as they are when unchanged. */
  raw?: Buffer;
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
