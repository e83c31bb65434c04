// Local storage access for the console. The keys are the spec's (user, status, aff, theme-mode,
// channel_models) plus the console's own preferences; nothing else writes to local storage.
export const STORAGE_KEYS = {
  user: 'user',
  status: 'status',
  aff: 'aff',
  themeMode: 'theme-mode',
  channelModels: 'channel_models',
  language: 'language',
  /** The announcement text the visitor closed (the classic console's `notice` key). */
  notice: 'notice',
} as const;

/** Page sizes are remembered per list, e.g. `page-size:users`. */
export const pageSizeKey = (listId: string): string => `page-size:${listId}`;

// Storage can throw (private mode, quota, disabled cookies); the console then works without it.
export function readString(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeString(key: string, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // Not persisted; the in-memory state still works for this page view.
  }
}

/** Parses a stored JSON value; anything unparsable or rejected by `accept` counts as absent. */
export function readJson<T>(key: string, accept: (value: unknown) => value is T): T | null {
  const raw = readString(key);
  if (raw === null) return null;
  try {
    const value: unknown = JSON.parse(raw);
    return accept(value) ? value : null;
  } catch {
    return null;
  }
}

export function writeJson(key: string, value: unknown): void {
  writeString(key, JSON.stringify(value));
}

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
