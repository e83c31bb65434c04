// Which channel types the relay can serve, and which of its endpoints each serves. The console reads
// it to tell a working choice from a type it can only store; the server's adapter registry and its
// task platforms are the truth, and a server test (relay/providers/relay-support.test.ts) keeps this
// table equal to them.

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

/**
 * The task APIs (the server's TaskPlatform): a client submits a task and fetches it later, in the
 * API its own tools speak — `midjourney` the midjourney-proxy API under /mj, `suno` the Suno API
 * under /suno.
 */
export const TASK_ENDPOINTS = ['midjourney', 'suno'] as const;
export type TaskEndpoint = (typeof TASK_ENDPOINTS)[number];

/** Anything a channel type can serve: kinds of calls, or a task API. */
export type ServedEndpoint = RelayEndpoint | TaskEndpoint;

const EVERY_ENDPOINT: readonly RelayEndpoint[] = RELAY_ENDPOINTS;

/** Channel type → the endpoints its channels serve; a type not listed cannot be relayed to yet. */
export const RELAY_SUPPORT: ReadonlyMap<number, readonly ServedEndpoint[]> = new Map<
  number,
  readonly ServedEndpoint[]
>([
  [1, EVERY_ENDPOINT],
  [2, ['midjourney']],
  [3, ['chat', 'completions', 'embeddings', 'images', 'speech', 'transcriptions', 'translations']],
  [4, EVERY_ENDPOINT],
  [5, ['midjourney']],
  [8, EVERY_ENDPOINT],
  [14, ['chat']],
  [19, EVERY_ENDPOINT],
  [24, ['chat', 'embeddings']],
  [25, EVERY_ENDPOINT],
  [31, EVERY_ENDPOINT],
  [33, ['chat']],
  [36, ['suno']],
  [40, EVERY_ENDPOINT],
  [41, ['chat']],
  [42, EVERY_ENDPOINT],
]);

/** Whether the relay can send calls to channels of this type at all. */
export const isRelayServedType = (type: number): boolean => RELAY_SUPPORT.has(type);

/** The task API a channel type serves (its channels take no other calls); undefined for the others. */
export const taskEndpointOf = (type: number): TaskEndpoint | undefined =>
  RELAY_SUPPORT.get(type)?.find((e): e is TaskEndpoint => (TASK_ENDPOINTS as readonly string[]).includes(e));
