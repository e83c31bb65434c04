// Which channel types the relay can serve, and which of its endpoints each serves. The console reads
// it to tell a working choice from a type it can only store; the server's adapter registry is the
// truth, and a server test (relay/providers/relay-support.test.ts) keeps this table equal to it.

/** The relay's endpoints, one per kind of call (the server's RelayMode). */
export const RELAY_ENDPOINTS = [
  'chat',
  'completions',
  'embeddings',
  'images',
  'speech',
  'transcriptions',
  'translations',
  'moderations',
  'rerank',
] as const;
export type RelayEndpoint = (typeof RELAY_ENDPOINTS)[number];

const EVERY_ENDPOINT: readonly RelayEndpoint[] = RELAY_ENDPOINTS;

/** Channel type → the endpoints its channels serve; a type not listed cannot be relayed to yet. */
export const RELAY_SUPPORT: ReadonlyMap<number, readonly RelayEndpoint[]> = new Map([
  [1, EVERY_ENDPOINT],
  [3, ['chat', 'completions', 'embeddings', 'images', 'speech', 'transcriptions', 'translations']],
  [4, EVERY_ENDPOINT],
  [8, EVERY_ENDPOINT],
  [14, ['chat']],
  [19, EVERY_ENDPOINT],
  [24, ['chat', 'embeddings']],
  [25, EVERY_ENDPOINT],
  [31, EVERY_ENDPOINT],
  [33, ['chat']],
  [40, EVERY_ENDPOINT],
  [41, ['chat']],
  [42, EVERY_ENDPOINT],
]);

/** Whether the relay can send calls to channels of this type at all. */
export const isRelayServedType = (type: number): boolean => RELAY_SUPPORT.has(type);
