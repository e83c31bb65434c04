// The contract every upstream vendor implements: pure functions from the IR to an HTTP call and from
// the upstream's answer back to IR facts. No I/O, no globals: the pipeline does the sending.
import type { IrRequest, RelayMode, UpstreamRequest } from '../ir/request.js';
import type { IrStreamEvent } from '../ir/stream.js';
import type { IrUsage } from '../ir/usage.js';

/** The wire dialect an upstream speaks; when it equals the client's, the relay forwards bytes. */
export type WireFormat = 'openai';

/** What an adapter knows of a channel. */
export interface ChannelTarget {
  type: number;
  key: string;
  /** The channel's base_url; empty means the vendor's default. */
  baseUrl: string;
  organization: string;
  /** The channel's free-form `other` field (API version, region, …). */
  other: string;
}

export interface ParsedResponse {
  usage?: IrUsage;
  /** The generated text, for counting when usage is missing. */
  text: string;
  /** The answer in the client's format (the upstream bytes when the formats match). */
  body: Buffer;
}

export interface UpstreamErrorInfo {
  message: string;
  type: string;
  code: string | null;
}

export interface StreamParser {
  push(chunk: Buffer): IrStreamEvent[];
  /** The upstream body ended. */
  end(): IrStreamEvent[];
}

export interface ProviderAdapter {
  readonly name: string;
  readonly wireFormat: WireFormat;
  readonly defaultBaseUrl: string;
  supports(mode: RelayMode): boolean;
  buildRequest(ir: IrRequest, channel: ChannelTarget, upstreamModel: string): UpstreamRequest;
  /** A successful (2xx) answer. Throws when the body is not what the format promises. */
  parseResponse(ir: IrRequest, body: Buffer): ParsedResponse;
  /** The error message and code in a failed answer's body (any status, any body). */
  parseError(status: number, body: Buffer): UpstreamErrorInfo;
  createStreamParser(ir: IrRequest): StreamParser;
}
