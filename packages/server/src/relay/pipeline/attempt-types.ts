// One try of a relay call on one channel, and what came of it.
import type { StreamInterruption } from '@sluice/shared';
import type { ChatRequest, StreamIdentity } from '../ir/chat.js';
import type { IrRequest } from '../ir/request.js';
import type { IrUsage } from '../ir/usage.js';
import type { InboundFormat } from '../inbound/types.js';
import type { ProviderAdapter } from '../providers/types.js';
import type { RelayChannel } from './channel-index.js';
import type { AttemptOutcome } from './circuit-breaker.js';
import type { ClientSink } from './client-sink.js';
import type { OutputGuardInput } from './output-guard.js';
import type { RelayRuntime } from './relay-runtime.js';
import type { AttemptError } from './upstream-errors.js';

export interface AttemptInput {
  rt: RelayRuntime;
  ir: IrRequest;
  inbound: InboundFormat;
  channel: RelayChannel;
  adapter: ProviderAdapter;
  upstreamModel: string;
  sink: ClientSink;
  startedMs: number;
  /** The call's request id, sent upstream as `x-request-id`. */
  requestId: string;
  /** What a token-priced stream may spend: its events are checked against the hold. */
  budget?: StreamBudget;
  /**
   * Set when the client's dialect differs from the upstream's: the neutral request (decoded once per
   * call, on first use) and the identity of the answer re-encoded for the client.
   */
  conversion?: Conversion;
}

export interface Conversion {
  request(): ChatRequest;
  identity: StreamIdentity;
}

export type StreamBudget = Omit<OutputGuardInput, 'counter' | 'model'>;

export type AttemptResult =
  /** The client received an answer (perhaps only part of a stream): the call is billed. */
  | {
      kind: 'delivered';
      usage?: IrUsage;
      /** Generated tokens counted locally, for when `usage` is missing. */
      countCompletion(): Promise<number>;
      firstResponseMs: number;
      outcome: AttemptOutcome;
      /** Why the answer is incomplete, when it is. */
      interruption?: StreamInterruption;
      /**
       * Completes the answer to the client; called once the charge is written, with the usage it was
       * billed for (which a converted answer tells its client).
       */
      finish(usage: IrUsage): void;
    }
  /** Nothing reached the client: another channel may be tried. */
  | { kind: 'failed'; failure: AttemptError };
