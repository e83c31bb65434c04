// The sidebar's items in the spec's order (part 2 §2) with their role and site-flag rules. Pure, so
// the rules are unit-tested; side-menu.tsx only adds icons and labels.
import { isAdmin } from '@sluice/shared';
import type { PublicStatus } from '@sluice/shared';

export type MenuKey =
  | 'playground'
  | 'pricing'
  | 'channel'
  | 'chat'
  | 'token'
  | 'redemption'
  | 'wallet'
  | 'user'
  | 'log'
  | 'detail'
  | 'midjourney'
  | 'task'
  | 'setting';

export interface MenuEntry {
  key: MenuKey | string;
  path: string;
  /** Translation key under `menu.`; chat links carry their own configured name instead. */
  labelKey?: MenuKey;
  label?: string;
  children?: MenuEntry[];
}

type MenuFlags = Pick<
  PublicStatus,
  'enable_data_export' | 'enable_drawing' | 'enable_task' | 'chats' | 'chat_link' | 'chat_link2'
>;

/** The chat sub-items: one per configured chat front-end, then the single chat links. */
export function chatEntries(status: MenuFlags): MenuEntry[] {
  const entries: MenuEntry[] = [];
  status.chats.forEach((chat, index) => {
    const name = Object.keys(chat)[0];
    if (name) entries.push({ key: `chat-${index}`, path: `/chat/${index}`, label: name });
  });
  if (status.chat_link) entries.push({ key: 'chat-link', path: '/chat', labelKey: 'chat' });
  if (status.chat_link2) entries.push({ key: 'chat-link2', path: '/chat2link', label: 'Chat 2' });
  return entries;
}

export function buildMenu(status: MenuFlags, role: number): MenuEntry[] {
  const admin = isAdmin(role);
  const chats = chatEntries(status);
  const items: Array<MenuEntry | false> = [
    { key: 'playground', path: '/playground', labelKey: 'playground' },
    { key: 'pricing', path: '/pricing', labelKey: 'pricing' },
    admin && { key: 'channel', path: '/channel', labelKey: 'channel' },
    chats.length > 0 && { key: 'chat', path: '/chat', labelKey: 'chat', children: chats },
    { key: 'token', path: '/token', labelKey: 'token' },
    admin && { key: 'redemption', path: '/redemption', labelKey: 'redemption' },
    { key: 'wallet', path: '/topup', labelKey: 'wallet' },
    admin && { key: 'user', path: '/user', labelKey: 'user' },
    { key: 'log', path: '/log', labelKey: 'log' },
    status.enable_data_export && { key: 'detail', path: '/detail', labelKey: 'detail' },
    status.enable_drawing && { key: 'midjourney', path: '/midjourney', labelKey: 'midjourney' },
    status.enable_task && { key: 'task', path: '/task', labelKey: 'task' },
    { key: 'setting', path: '/setting', labelKey: 'setting' },
  ];
  return items.filter((item): item is MenuEntry => item !== false);
}

/** The entry whose path is the longest prefix of the current path (so /user/edit/3 selects users). */
export function selectedMenuKey(entries: MenuEntry[], pathname: string): string | undefined {
  let best: { key: string; length: number } | undefined;
  const visit = (list: MenuEntry[]) => {
    for (const entry of list) {
      const matches = pathname === entry.path || pathname.startsWith(`${entry.path}/`);
      // On a tie the later entry (a child after its parent) wins.
      if (matches && (!best || entry.path.length >= best.length))
        best = { key: entry.key, length: entry.path.length };
      if (entry.children) visit(entry.children);
    }
  };
  visit(entries);
  return best?.key;
}
