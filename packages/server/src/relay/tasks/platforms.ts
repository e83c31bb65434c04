// Which channel types run tasks instead of chat-like calls, and for which platform: a relay mode of its
// own for channel selection (providers/registry.ts canServe), so a drawing never lands on a chat
// channel that happens to list the same model name, nor a chat call on a Midjourney proxy.

export type TaskPlatform = 'midjourney' | 'suno';

const TASK_CHANNEL_TYPES: ReadonlyMap<number, TaskPlatform> = new Map([
  [2, 'midjourney'], // Midjourney Proxy
  [5, 'midjourney'], // Midjourney Proxy Plus
  [36, 'suno'],
]);

export const taskPlatformOf = (channelType: number): TaskPlatform | undefined =>
  TASK_CHANNEL_TYPES.get(channelType);

export const taskChannelTypes = (): number[] => [...TASK_CHANNEL_TYPES.keys()];

export const isTaskPlatform = (mode: string): mode is TaskPlatform =>
  mode === 'midjourney' || mode === 'suno';

/** Statuses after which a task never changes again (both platforms write these two). */
export const FINAL_TASK_STATUSES = ['SUCCESS', 'FAILURE'] as const;
