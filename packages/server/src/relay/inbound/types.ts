// The contract of a client-facing format: how its requests become the IR, and how answers and errors
// are told to its clients. One per endpoint family (OpenAI chat, completions, embeddings, Claude, …).
import type { IrError } from '../ir/errors.js';
import type { IrRequest, RelayMode } from '../ir/request.js';
import type { ChatCodec, ChatWire } from '../wire/types.js';

export interface InboundFormat {
  readonly mode: RelayMode;
  /** Upstreams speaking this dialect get the client's bytes, and their answers go back as they came. */
  readonly wireFormat: ChatWire;
  /**
   * The dialect's codec, for chat-like formats that can be served by upstreams of other dialects
   * (the request is decoded to neutral form and the answer encoded back). Without one, only
   * upstreams of the same dialect serve this format.
   */
  readonly codec?: ChatCodec;
  /**
   * The client's parsed JSON, its bytes and its request headers → IR. Throws a 400 RelayError on
   * invalid input.
   */
  parse(
    body: unknown,
    raw: Buffer | undefined,
    headers?: Readonly<Record<string, string | string[] | undefined>>,
  ): IrRequest;
  /** A quick prompt-size guess (no tokenizer) for the quota held before the call. */
  estimatePromptTokens(ir: IrRequest): number;
  /** The prompt counted with the tokenizer, for upstreams that report no usage. */
  countPromptTokens(ir: IrRequest): Promise<number>;
  /** The JSON body of an error answer. */
  errorBody(error: IrError): unknown;
  /** An error told inside a stream that has already started. */
  streamError(error: IrError): string;
  /** The end-of-stream marker, added when an upstream finished without sending its own. */
  readonly streamEnd: string;
}
