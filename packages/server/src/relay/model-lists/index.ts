// Asks a channel's upstream which models it serves (the console's "fetch models"): the vendor's own
// list, page after page up to a bound, sent through the relay's upstream client with the adapter's
// credential exchange, signing and error reading. A refusal names the reason without the channel's
// key or the upstream's address.
import { MSG, channelBaseUrl } from '@sluice/shared';
import type { AppContext } from '../../app-context.js';
import { CredentialFailure, forgetCredential, withCredential } from '../pipeline/channel-credentials.js';
import { relayRuntime } from '../pipeline/relay-runtime.js';
import { signedRequest } from '../pipeline/request-signing.js';
import { cancellationOf, toUpstreamFailure } from '../pipeline/upstream-client.js';
import { redactUpstreamMessage } from '../pipeline/upstream-errors.js';
import { adapterFor } from '../providers/registry.js';
import type { ChannelTarget } from '../providers/types.js';
import { anthropicModelListing } from './anthropic.js';
import { bedrockModelListing } from './bedrock.js';
import { geminiModelListing } from './gemini.js';
import { azureModelListing, openAiModelListing } from './openai.js';
import type { ModelListing } from './types.js';
import { UnexpectedAnswer } from './types.js';
import { vertexModelListing } from './vertex.js';

export interface ModelListResult {
  /** Distinct names, in the upstream's order. */
  models: string[];
  /** What the console should say with the list ('' when nothing). */
  message: string;
}

/** Why no list: the type has none, the channel lacks an address, or the upstream failed (`upstream`). */
export class ModelListRefusal extends Error {
  constructor(
    message: string,
    readonly reason: 'unsupported' | 'no-base-url' | 'upstream',
  ) {
    super(message);
    this.name = 'ModelListRefusal';
  }
}

/** Vendors with a list of their own; any other type the relay serves in OpenAI's dialect lists at /v1/models. */
const LISTINGS: ReadonlyMap<number, ModelListing> = new Map([
  [3, azureModelListing],
  [14, anthropicModelListing],
  [24, geminiModelListing],
  [33, bedrockModelListing],
  [41, vertexModelListing],
]);

const openAiListing = openAiModelListing((channel) => channelBaseUrl(channel.type, channel.baseUrl));

export function modelListingFor(type: number): ModelListing | undefined {
  return LISTINGS.get(type) ?? (adapterFor(type)?.dialects[0] === 'openai' ? openAiListing : undefined);
}

/** Pages followed per list at most: thousands of models, far more than any vendor has. */
export const MAX_PAGES = 20;
/** Each call's wait for headers and for body data. */
const CALL_TIMEOUT_MS = 20_000;
/** The whole list, every page (and a credential exchange) included. */
const LIST_TIMEOUT_MS = 60_000;
const ANSWER_LIMIT = 16 * 1024 * 1024;

const upstreamRefusal = (message: string) => new ModelListRefusal(message, 'upstream');

/** Every page of every source of the listing, as distinct names; `cut` when a bound was reached. */
async function readPages(
  ctx: AppContext,
  listing: ModelListing,
  channel: ChannelTarget,
  signal: AbortSignal,
): Promise<{ names: Set<string>; cut: boolean }> {
  const adapter = adapterFor(channel.type);
  if (!adapter) throw new ModelListRefusal(MSG.onlyOpenAIFormat, 'unsupported');
  const { upstream } = relayRuntime(ctx);
  const cancel = cancellationOf(signal);
  const target = await withCredential(upstream, adapter.credentials, channel);
  const names = new Set<string>();
  let cut = false;
  for (const source of listing.sources) {
    let cursor: string | undefined;
    for (let page = 0; ; page++) {
      if (page === MAX_PAGES) {
        cut = true;
        break;
      }
      const built = source.request(target, cursor);
      const request = adapter.signRequest ? await signedRequest(adapter, built, target) : built;
      const res = await upstream.send(request, cancel, {
        headersMs: CALL_TIMEOUT_MS,
        bodyMs: CALL_TIMEOUT_MS,
      });
      const body = await res.body.readAll(ANSWER_LIMIT);
      if (res.status < 200 || res.status >= 300) {
        if (res.status === 401 && adapter.credentials) forgetCredential(upstream, channel);
        const detail = adapter.parseError(res.status, body).message;
        throw upstreamRefusal(`upstream answered HTTP ${res.status}${detail ? `: ${detail}` : ''}`);
      }
      let json: unknown;
      try {
        json = JSON.parse(body.toString('utf8'));
      } catch {
        throw upstreamRefusal('upstream answered with something that is not JSON');
      }
      const { models, next } = source.parse(json, ctx.clock.now());
      for (const model of models) if (model !== '') names.add(model);
      // A cursor that does not move would only repeat the page.
      if (next === undefined || next === cursor) break;
      cursor = next;
    }
  }
  return { names, cut };
}

/**
 * The models the channel's upstream lists (for a channel not stored yet, `channel` is what the form
 * holds). Rejects with a ModelListRefusal whose message an admin may read.
 */
export async function listChannelModels(ctx: AppContext, channel: ChannelTarget): Promise<ModelListResult> {
  const listing = modelListingFor(channel.type);
  if (!listing) throw new ModelListRefusal(MSG.onlyOpenAIFormat, 'unsupported');
  if (listing.needsBaseUrl && channelBaseUrl(channel.type, channel.baseUrl) === '') {
    throw new ModelListRefusal(MSG.channelNoBaseUrl, 'no-base-url');
  }
  const signal = AbortSignal.timeout(LIST_TIMEOUT_MS);
  let read: { names: Set<string>; cut: boolean };
  try {
    read = await readPages(ctx, listing, channel, signal);
  } catch (error) {
    let message: string;
    if (error instanceof ModelListRefusal) {
      if (error.reason !== 'upstream') throw error;
      message = error.message;
    } else if (error instanceof CredentialFailure || error instanceof UnexpectedAnswer) {
      message = error.message;
    } else {
      message = signal.aborted
        ? `no answer within ${LIST_TIMEOUT_MS / 1000}s`
        : toUpstreamFailure(error, cancellationOf(signal)).message;
    }
    // Admins read this: an upstream that echoes the key or names its hosts must not show them.
    throw upstreamRefusal(redactUpstreamMessage(message, channel.key));
  }
  const notes = [listing.note, listing.unlisted?.note];
  if (read.cut) notes.push(`the list was cut after ${MAX_PAGES} pages`);
  for (const model of listing.unlisted?.models ?? []) read.names.add(model);
  return {
    models: [...read.names],
    message: notes.filter((note): note is string => note !== undefined).join('; '),
  };
}
