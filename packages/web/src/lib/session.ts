// The signed-in user as the console knows it: kept under the `user` storage key so a reload stays
// signed in, and observable so the top bar, sidebar and guards follow sign-in and sign-out at once.
import { useSyncExternalStore } from 'react';
import { isAdmin, isRoot } from '@sluice/shared';
import { STORAGE_KEYS, isRecord, readJson, writeJson, writeString } from './storage';

export interface SessionUser {
  id: number;
  username: string;
  display_name: string;
  role: number;
  status: number;
  group: string;
  /** The server lets the account do nothing but choose a new password (root's first start). */
  password_change_required?: boolean;
}

const isSessionUser = (value: unknown): value is SessionUser =>
  isRecord(value) &&
  typeof value.id === 'number' &&
  typeof value.username === 'string' &&
  typeof value.role === 'number';

let current: SessionUser | null | undefined;
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());

export function getUser(): SessionUser | null {
  if (current === undefined) current = readJson(STORAGE_KEYS.user, isSessionUser);
  return current;
}

/** Stores the user from a sign-in answer; unknown fields are dropped. */
export function setUser(user: SessionUser): void {
  current = {
    id: user.id,
    username: user.username,
    display_name: user.display_name ?? '',
    role: user.role,
    status: user.status,
    group: user.group ?? '',
    ...(user.password_change_required ? { password_change_required: true } : {}),
  };
  writeJson(STORAGE_KEYS.user, current);
  notify();
}

export function clearUser(): void {
  current = null;
  writeString(STORAGE_KEYS.user, null);
  notify();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // Another tab signing in or out changes this tab too.
  const onStorage = (event: StorageEvent) => {
    if (event.key !== STORAGE_KEYS.user && event.key !== null) return;
    current = undefined;
    listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export function useUser(): SessionUser | null {
  return useSyncExternalStore(subscribe, getUser, getUser);
}

/** Renders a page's first paint for `user` outside the browser (first-paint/render.tsx). */
export async function renderAsUser<T>(user: SessionUser | null, render: () => Promise<T>): Promise<T> {
  current = user;
  try {
    return await render();
  } finally {
    current = undefined;
  }
}

export const userIsAdmin = (user: SessionUser | null): boolean => user !== null && isAdmin(user.role);
export const userIsRoot = (user: SessionUser | null): boolean => user !== null && isRoot(user.role);
