import { describe, expect, it } from 'vitest';
import { buildMenu, selectedMenuKey } from './menu-items';

const flags = {
  enable_data_export: false,
  enable_drawing: false,
  enable_task: false,
  chats: [] as Array<Record<string, string>>,
  chat_link: '',
  chat_link2: '',
};
const keys = (entries: ReturnType<typeof buildMenu>) => entries.map((e) => e.key);

describe('sidebar items', () => {
  it('shows a regular user no admin items', () => {
    expect(keys(buildMenu(flags, 1))).toEqual(['playground', 'pricing', 'token', 'wallet', 'log', 'setting']);
  });

  it('adds channels, redemption codes and users for admins, in the spec order', () => {
    expect(keys(buildMenu(flags, 10))).toEqual([
      'playground',
      'pricing',
      'channel',
      'token',
      'redemption',
      'wallet',
      'user',
      'log',
      'setting',
    ]);
    expect(keys(buildMenu(flags, 100))).toContain('user');
  });

  it('shows the dashboard, drawing and tasks only when the site enables them', () => {
    const all = { ...flags, enable_data_export: true, enable_drawing: true, enable_task: true };
    expect(keys(buildMenu(all, 1))).toEqual([
      'playground',
      'pricing',
      'token',
      'wallet',
      'log',
      'detail',
      'midjourney',
      'task',
      'setting',
    ]);
    expect(keys(buildMenu({ ...flags, enable_drawing: true }, 1))).toEqual([
      'playground',
      'pricing',
      'token',
      'wallet',
      'log',
      'midjourney',
      'setting',
    ]);
  });

  it('builds the chat group from the configured chat links', () => {
    const menu = buildMenu({ ...flags, chats: [{ NextChat: 'https://a' }, { 'Lobe Chat': 'https://b' }] }, 1);
    const chat = menu.find((e) => e.key === 'chat');
    expect(keys(menu).indexOf('chat')).toBe(2);
    expect(chat?.children?.map((c) => [c.label, c.path])).toEqual([
      ['NextChat', '/chat/0'],
      ['Lobe Chat', '/chat/1'],
    ]);
  });

  it('selects the entry whose path starts the current path', () => {
    const menu = buildMenu({ ...flags, chats: [{ NextChat: 'https://a' }] }, 10);
    expect(selectedMenuKey(menu, '/user/edit/3')).toBe('user');
    expect(selectedMenuKey(menu, '/chat/0')).toBe('chat-0');
    expect(selectedMenuKey(menu, '/setting')).toBe('setting');
    expect(selectedMenuKey(menu, '/nowhere')).toBeUndefined();
  });
});
