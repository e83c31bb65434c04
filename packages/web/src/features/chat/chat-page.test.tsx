// Chat links as a user meets them: the chat front-end in a frame with the user's enabled key, the
// configuration messages, no enabled token (then the token page), and the /chat2link redirect.
import { cleanup, configure, screen, waitFor } from '@testing-library/react';
import type { TokenView } from '@sluice/shared';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadSections } from '../../i18n';
import { clearUser, setUser } from '../../lib/session';
import { DEFAULT_STATUS } from '../../lib/status';
import type { SiteStatus } from '../../lib/status';
import { installFetch, ok } from '../../test/fake-fetch';
import { renderPage } from '../../test/render';
import { ChatPage } from './chat-page';
import { Chat2LinkPage } from './chat2link-page';
import { leaveTo } from './leave';

vi.mock('./leave', () => ({ leaveTo: vi.fn() }));
vi.setConfig({ testTimeout: 30_000 });
configure({ asyncUtilTimeout: 5_000 });

const token = (over: Partial<TokenView>): TokenView => ({
  id: 1,
  user_id: 5,
  key: 'disabledkey',
  status: 2,
  name: 't',
  created_time: 0,
  accessed_time: 0,
  expired_time: -1,
  remain_quota: 0,
  unlimited_quota: true,
  used_quota: 0,
  model_limits_enabled: false,
  model_limits: '',
  allow_ips: '',
  group: '',
  ...over,
});

const chatStatus: Partial<SiteStatus> = {
  server_address: 'https://api.example.com',
  chats: [
    { 'Chat A': 'https://a.example/?key={key}' },
    { 'Chat B': 'https://b.example/#/?key={key}&url={address}' },
  ],
  chat_link: 'https://one.example/?key={key}',
  chat_link2: 'https://two.example/?key={key}&url={address}',
};

function serve(status: Partial<SiteStatus>, tokens: TokenView[]) {
  return installFetch({
    'GET /api/status': ok({ ...DEFAULT_STATUS, ...status }),
    'GET /api/token/': ok(tokens),
  });
}

const frame = async () => {
  const element = await screen.findByTitle('Chat');
  return element.getAttribute('src');
};

beforeAll(() => loadSections());
beforeEach(() => {
  localStorage.clear();
  setUser({ id: 5, username: 'pat', display_name: '', role: 1, status: 1, group: 'default' });
});
afterEach(() => {
  cleanup();
  clearUser();
  vi.unstubAllGlobals();
  vi.mocked(leaveTo).mockClear();
});

describe('chat page', () => {
  it('opens the configured chat with the first enabled token and the server address', async () => {
    const calls = serve(chatStatus, [
      token({}),
      token({ id: 2, key: 'abc123', status: 1 }),
      token({ id: 3, key: 'later', status: 1 }),
    ]);
    renderPage(<ChatPage />, { path: '/chat/:id', url: '/chat/1' });
    expect(await frame()).toBe('https://b.example/#/?key=sk-abc123&url=https%3A%2F%2Fapi.example.com');
    const lookup = calls.find((c) => c.path === '/api/token/');
    expect(lookup?.query.get('p')).toBe('0');
    expect(lookup?.query.get('size')).toBe('100');
  });

  it('opens chat_link without an id, addressed to this site when no server address is set', async () => {
    serve({ ...chatStatus, server_address: '', chat_link: 'https://one.example/?key={key}&url={address}' }, [
      token({ key: 'abc123', status: 1 }),
    ]);
    renderPage(<ChatPage />, { path: '/chat' });
    const origin = encodeURIComponent(window.location.origin);
    expect(await frame()).toBe(`https://one.example/?key=sk-abc123&url=${origin}`);
  });

  it('says the configuration is wrong for an id that has no chat', async () => {
    serve(chatStatus, [token({ status: 1 })]);
    renderPage(<ChatPage />, { path: '/chat/:id', url: '/chat/7' });
    expect(await screen.findByText('chat link configuration error, contact admin')).toBeTruthy();
    expect(screen.queryByTitle('Chat')).toBeNull();
  });

  it('asks to contact the admin when no chat link is configured', async () => {
    serve({ chat_link: '' }, [token({ status: 1 })]);
    renderPage(<ChatPage />, { path: '/chat' });
    expect(await screen.findByText('please contact admin to configure chat links')).toBeTruthy();
  });

  it('says the chat data could not be read when an entry is malformed', async () => {
    serve({ chats: [{ 'Chat A': 5 }] as unknown as SiteStatus['chats'] }, [token({ status: 1 })]);
    renderPage(<ChatPage />, { path: '/chat/:id', url: '/chat/0' });
    expect(await screen.findByText('chat data parse failed')).toBeTruthy();
  });

  it('without an enabled token says so and then goes to the token page', async () => {
    serve(chatStatus, [token({ status: 2 }), token({ id: 2, status: 3 })]);
    renderPage(<ChatPage />, { path: '/chat/:id', url: '/chat/0' });
    expect((await screen.findAllByText('no enabled token available')).length).toBeGreaterThan(0);
    expect(screen.queryByTitle('Chat')).toBeNull();
    await waitFor(() => expect(screen.getByText('elsewhere')).toBeTruthy(), { timeout: 5_000 });
  });
});

describe('chat2link', () => {
  it('leaves for chat_link2 with the key and address filled in', async () => {
    serve(chatStatus, [token({ key: 'abc123', status: 1 })]);
    renderPage(<Chat2LinkPage />, { path: '/chat2link' });
    await waitFor(() =>
      expect(leaveTo).toHaveBeenCalledWith(
        'https://two.example/?key=sk-abc123&url=https%3A%2F%2Fapi.example.com',
      ),
    );
  });

  it('asks to contact the admin when chat_link2 is not set', async () => {
    serve({ chat_link2: '' }, [token({ status: 1 })]);
    renderPage(<Chat2LinkPage />, { path: '/chat2link' });
    expect(await screen.findByText('please contact admin to configure chat links')).toBeTruthy();
    expect(leaveTo).not.toHaveBeenCalled();
  });
});
