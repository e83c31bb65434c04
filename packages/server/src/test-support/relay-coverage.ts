// What the relay serves, read from the running code rather than from a list kept by hand: the adapter
// registry and the task platforms (the endpoints each channel type serves) and the relay's routes (the
// chat formats clients call in, the task APIs' paths), for the suites that hold the README and the
// console's table to it.
import Fastify from 'fastify';
import { RELAY_ENDPOINTS, channelTypeLabel } from '@sluice/shared';
import type { ServedEndpoint } from '@sluice/shared';
import type { InboundFormat } from '../relay/inbound/types.js';
import { adapterFor, servedChannelTypes } from '../relay/providers/registry.js';
import { registerRelayRoutes } from '../relay/relay.routes.js';
import { taskPlatformOf } from '../relay/tasks/platforms.js';
import type { ChatWire } from '../relay/wire/types.js';
import type { TestApp } from './test-app.js';

/** The chat client formats by the names the README gives them, in the order it lists them. */
export const CHAT_FORMAT_NAMES: ReadonlyArray<readonly [ChatWire, string]> = [
  ['openai', 'OpenAI Chat'],
  ['responses', 'OpenAI Responses'],
  ['anthropic', 'Anthropic Messages'],
  ['gemini', 'Gemini'],
];

export interface RelayRoute {
  method: string;
  url: string;
  /** The client format the route speaks, when it relays calls. */
  inbound?: InboundFormat;
}

/**
 * Every route the relay registers, with its format. The routes are registered again on a bare
 * Fastify instance with the test app's context (never started nor closed: it shares the app's relay
 * runtime, which the app closes).
 */
export async function readRelayRoutes(t: TestApp): Promise<RelayRoute[]> {
  const bare = Fastify();
  const routes: RelayRoute[] = [];
  bare.addHook('onRoute', (route) => {
    const inbound = route.config?.relayInbound;
    for (const method of [route.method].flat()) {
      routes.push({ method, url: route.url ?? route.path, ...(inbound ? { inbound } : {}) });
    }
  });
  await registerRelayRoutes(bare, t.app.ctx);
  return routes;
}

/**
 * What channels of a type serve: the kinds of calls its adapter supports, in RELAY_ENDPOINTS order,
 * or the task API of its platform.
 */
export function servedEndpoints(type: number): ServedEndpoint[] {
  const adapter = adapterFor(type);
  const platform = taskPlatformOf(type);
  return [
    ...RELAY_ENDPOINTS.filter((mode) => adapter?.supports(mode) === true),
    ...(platform ? [platform] : []),
  ];
}

export interface ServedType {
  type: number;
  vendor: string;
  endpoints: ServedEndpoint[];
  /** Names of the chat formats whose clients reach this type (as bytes or converted). */
  chatClients: string[];
}

/** Each channel type the relay serves: what it serves, and which chat clients reach it. */
export function servedTypes(routes: readonly RelayRoute[]): ServedType[] {
  const chatFormats = new Set(
    routes.flatMap((r) => (r.inbound && r.inbound.mode === 'chat' ? [r.inbound] : [])),
  );
  return servedChannelTypes().map((type) => {
    const adapter = adapterFor(type);
    const endpoints = servedEndpoints(type);
    // A chat client reaches the type when its upstream speaks the client's dialect, or the client's
    // request can be converted (relay-call.ts).
    const reaches = (wire: ChatWire) =>
      endpoints.includes('chat') &&
      [...chatFormats].some(
        (f) => f.wireFormat === wire && (adapter?.dialects.includes(wire) === true || f.codec !== undefined),
      );
    return {
      type,
      vendor: channelTypeLabel(type),
      endpoints,
      chatClients: CHAT_FORMAT_NAMES.filter(([wire]) => reaches(wire)).map(([, name]) => name),
    };
  });
}
