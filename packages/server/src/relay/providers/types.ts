// The contract every upstream vendor implements: pure functions from the IR to an HTTP call and from
// the upstream's answer back to IR facts. No I/O, no globals: the pipeline does the sending.
import type { OptionKey, OptionValue } from '@sluice/shared';
import type { ChatAnswer, ChatRequest } from '../ir/chat.js';
import type { IrRequest, RelayMode, UpstreamRequest } from '../ir/request.js';
import type { IrStreamEvent } from '../ir/stream.js';
import type { IrUsage } from '../ir/usage.js';

import type { ChatWire } from '../wire/types.js';

/** What an adapter knows of a channel. */
export interface ChannelTarget {
  type: number;
  key: string;
  /** The channel's base_url; empty means the vendor's default. */
  baseUrl: string;
  organization: string;
  /** The channel's free-form `other` field (API version, region, …). */
  other: string;
  /**
   * The short-lived credential the key was exchanged for (an OAuth access token), for adapters with
   * `credentials`: the pipeline sets it just before buildRequest.
   */
  credential?: string;
}

export interface ParsedResponse {
  usage?: IrUsage;
  /** The generated text, for counting when usage is missing. */
  text: string;
  /** The upstream's answer bytes. */
  body: Buffer;
  /** The answer in neutral form, when the client speaks another dialect (it is re-encoded for it). */
  answer?: ChatAnswer;
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

/** A credential a token endpoint issued for a channel's key. */
export interface IssuedCredential {
  /** What the upstream calls carry (an access token). */
  value: string;
  /** How long it stays valid from now, in seconds. */
  expiresInSeconds: number;
}

/**
 * How a vendor whose key is not sent as it is gets a short-lived credential for it (OAuth access
 * tokens: Vertex service accounts, Baidu's key and secret). Pure like the rest of the adapter: the
 * pipeline sends the exchange, caches the credential per key until shortly before it expires (calls
 * at the same time share one exchange) and hands buildRequest the channel with `credential` set.
 */
export interface CredentialExchange {
  /**
   * The token request for the channel's key, dated `nowSeconds` (Unix time). Async because signing
   * (WebCrypto) is; rejects with a message for the operator when the key cannot be used.
   */
  buildRequest(channel: ChannelTarget, nowSeconds: number): Promise<UpstreamRequest>;
  /** The credential in a 2xx answer; throws when there is none. */
  parseResponse(body: Buffer): IssuedCredential;
  /** Why the exchange was refused (any status, any body). */
  parseError(status: number, body: Buffer): UpstreamErrorInfo;
}

/** Read access to the site's options, as the relay's option store gives it. */
export interface OptionReader {
  get<K extends OptionKey>(key: K): OptionValue<K>;
}

export interface ProviderAdapter {
  readonly name: string;
  /**
   * The dialects the upstream speaks natively: a client speaking one of them is forwarded as bytes;
   * any other chat client is converted into the first.
   */
  readonly dialects: readonly ChatWire[];
  readonly defaultBaseUrl: string;
  supports(mode: RelayMode): boolean;
  /**
   * The upstream call. `chat` is given when the client speaks another dialect: the body is then
   * encoded from it; otherwise the client's own body (`ir.body`, `ir.raw`) is forwarded. `options`
   * reads the site's settings a vendor's call depends on (Gemini's safety threshold).
   */
  buildRequest(
    ir: IrRequest,
    channel: ChannelTarget,
    upstreamModel: string,
    chat?: ChatRequest,
    options?: OptionReader,
  ): UpstreamRequest;
  /**
   * The last step before sending, for vendors whose credential covers the final URL, headers and
   * body and is computed asynchronously (AWS SigV4 with AWS's signer). Rejects, with a message for the
   * operator, when the channel's key cannot sign; the pipeline judges that a definitive channel fault.
   * Absent: the built request is sent as it is.
   */
  signRequest?(request: UpstreamRequest, channel: ChannelTarget): Promise<UpstreamRequest>;
  /**
   * A successful (2xx) answer. Throws when the body is not what the format promises. With `chat` (the
   * client speaks another dialect), the neutral answer is filled in too.
   */
  parseResponse(ir: IrRequest, body: Buffer, chat?: ChatRequest): ParsedResponse;
  /** The error message and code in a failed answer's body (any status, any body). */
  parseError(status: number, body: Buffer): UpstreamErrorInfo;
  /** With `chat`, each event's `deltas` are filled in for re-encoding in the client's dialect. */
  createStreamParser(ir: IrRequest, chat?: ChatRequest): StreamParser;
  /** Set when the key is exchanged for a short-lived credential before calls (CredentialExchange). */
  readonly credentials?: CredentialExchange;
  /**
   * The adapter serving this upstream model, for vendors whose models speak different dialects
   * (Vertex: Gemini models Gemini's, Claude models Anthropic's). The pipeline resolves it once the
   * model is mapped and uses it for the whole attempt; absent, this adapter serves every model.
   */
  forModel?(upstreamModel: string): ProviderAdapter;
}
