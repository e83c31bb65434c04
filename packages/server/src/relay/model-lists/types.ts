// What a vendor's model list is, as pure functions: the call for one page of it and the model names
// in an answer. The runner (index.ts) sends the calls with the channel adapter's own credential
// exchange, signing and error reading, so a list is asked for exactly as the relay's calls are.
import type { z } from 'zod';
import type { UpstreamRequest } from '../ir/request.js';
import type { ChannelTarget } from '../providers/types.js';

export interface ModelPage {
  /** The model names as the channel's model list takes them. */
  models: string[];
  /** The cursor of the next page; undefined on the last one. */
  next?: string;
}

/** One paged list a vendor serves (Vertex has one per publisher). */
export interface ModelListSource {
  /** The call for the page after `cursor` (the first page when undefined). */
  request(channel: ChannelTarget, cursor: string | undefined): UpstreamRequest;
  /**
   * The page in a 2xx answer's JSON, `nowSeconds` being the time (Unix seconds) for vendors that date
   * a model's retirement; throws when the answer is not the vendor's list.
   */
  parse(body: unknown, nowSeconds: number): ModelPage;
}

export interface ModelListing {
  sources: readonly ModelListSource[];
  /**
   * Names the vendor does not list but the channel can serve, added after the listed ones, with a
   * sentence saying where they come from.
   */
  unlisted?: { models: readonly string[]; note: string };
  /** A sentence the console shows with the list (how to use it). */
  note?: string;
  /** Calls need an address the type does not have by itself (Azure's resource, a custom channel's). */
  needsBaseUrl?: boolean;
}

/** Answers that are not the vendor's list. */
export class UnexpectedAnswer extends Error {
  constructor() {
    super('upstream answered in an unexpected format');
    this.name = 'UnexpectedAnswer';
  }
}

/** The body parsed with `schema`, or UnexpectedAnswer. */
export function parseAnswer<T>(schema: z.ZodType<T>, body: unknown): T {
  const checked = schema.safeParse(body);
  if (!checked.success) throw new UnexpectedAnswer();
  return checked.data;
}
