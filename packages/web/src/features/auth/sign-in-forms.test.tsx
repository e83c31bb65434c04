// The sign-in and registration forms' client-side rules (spec part 1 §5), as a user meets them.
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearUser } from '../../lib/session';
import { DEFAULT_STATUS } from '../../lib/status';
import { installFetch, ok } from '../../test/fake-fetch';
import type { RecordedCall } from '../../test/fake-fetch';
import { renderPage } from '../../test/render';
import { LoginPage } from './login-page';
import { RegisterPage } from './register-page';

function serve(status: Partial<typeof DEFAULT_STATUS> = {}): RecordedCall[] {
  return installFetch({
    'GET /api/status': ok({ ...DEFAULT_STATUS, ...status }),
    'POST /api/user/login': ok({
      id: 1,
      username: 'root',
      display_name: '',
      role: 100,
      status: 1,
      group: 'default',
    }),
    'POST /api/user/register': ok(null),
  });
}

const type = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });

beforeEach(() => {
  localStorage.clear();
  clearUser();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('login form', () => {
  it('asks for both fields when either is empty, and sends nothing', async () => {
    const calls = serve();
    renderPage(<LoginPage />, { path: '/login' });
    fireEvent.click(await screen.findByRole('button', { name: 'Log in' }));
    expect(await screen.findByRole('alert')).toHaveProperty(
      'textContent',
      'please enter username and password',
    );

    type('Username', 'root');
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    await screen.findByRole('alert');
    expect(calls.some((c) => c.path === '/api/user/login')).toBe(false);
  });

  it('signs in with both fields and lands on /token', async () => {
    const calls = serve();
    const { router } = renderPage(<LoginPage />, { path: '/login' });
    type('Username', ' root ');
    type('Password', '123456');
    fireEvent.click(await screen.findByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/token'));
    const login = calls.find((c) => c.path === '/api/user/login');
    expect(login?.body).toEqual({ username: 'root', password: '123456' });
    expect(JSON.parse(localStorage.getItem('user') ?? '{}')).toMatchObject({ id: 1, username: 'root' });
  });

  it('tells a visitor whose session ran out to log in again, and keeps an invite code', async () => {
    serve();
    renderPage(<LoginPage />, { path: '/login', url: '/login?expired=true&aff=ABCD' });
    expect(await screen.findByText('not logged in or login expired, please log in again')).toBeTruthy();
    expect(localStorage.getItem('aff')).toBe('ABCD');
  });

  it('waits for the human check when the site turns it on', async () => {
    const calls = serve({ turnstile_check: true, turnstile_site_key: 'site-key' });
    renderPage(<LoginPage />, { path: '/login' });
    await waitFor(() => expect(calls.some((c) => c.path === '/api/status')).toBe(true));
    type('Username', 'root');
    type('Password', '123456');
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByText('please retry in a few seconds, Turnstile is checking')).toBeTruthy();
    expect(calls.some((c) => c.path === '/api/user/login')).toBe(false);
  });
});

describe('login screen choices', () => {
  it('offers registration only while the site takes new accounts by password', async () => {
    serve();
    renderPage(<LoginPage />, { path: '/login' });
    expect(await screen.findByRole('link', { name: 'Register' })).toBeTruthy();
    cleanup();

    for (const closed of [{ register_enabled: false }, { password_register: false }]) {
      const calls = serve(closed);
      renderPage(<LoginPage />, { path: '/login' });
      await waitFor(() => expect(calls.some((c) => c.path === '/api/status')).toBe(true));
      await waitFor(() => expect(screen.queryByRole('link', { name: 'Register' })).toBeNull());
      expect(screen.getByRole('link', { name: 'Forgot password?' })).toBeTruthy();
      cleanup();
    }
  });

  it('names every third-party choice, LinuxDO included, in visible text', async () => {
    serve({ github_oauth: true, linuxdo_oauth: true, wechat_login: true });
    renderPage(<LoginPage />, { path: '/login' });
    const linuxdo = await screen.findByRole('button', { name: 'Log in with LinuxDO' });
    expect(linuxdo.textContent).toContain('LinuxDO');
    expect(screen.getByRole('button', { name: 'Log in with GitHub' }).textContent).toContain('GitHub');
    expect(screen.getByRole('button', { name: 'Log in with WeChat' }).textContent).toContain('WeChat');
  });
});

describe('register form', () => {
  it('refuses a password shorter than 8 characters', async () => {
    const calls = serve();
    renderPage(<RegisterPage />, { path: '/register' });
    type('Username', 'newuser');
    type('Password', 'short');
    type('Confirm password', 'short');
    fireEvent.click(await screen.findByRole('button', { name: 'Register' }));
    expect(await screen.findByText('Password length must not be less than 8')).toBeTruthy();
    expect(calls.some((c) => c.path === '/api/user/register')).toBe(false);
  });

  it('refuses two different passwords', async () => {
    serve();
    renderPage(<RegisterPage />, { path: '/register' });
    type('Username', 'newuser');
    type('Password', 'long-enough-1');
    type('Confirm password', 'long-enough-2');
    fireEvent.click(await screen.findByRole('button', { name: 'Register' }));
    expect(await screen.findByText('the two passwords do not match')).toBeTruthy();
  });

  it('requires the username', async () => {
    serve();
    renderPage(<RegisterPage />, { path: '/register' });
    type('Password', 'long-enough-1');
    type('Confirm password', 'long-enough-1');
    fireEvent.click(await screen.findByRole('button', { name: 'Register' }));
    expect(await screen.findByText('please enter username and password')).toBeTruthy();
  });

  it('shows email and code only when the site verifies email, and sends them with the invite code', async () => {
    const calls = serve({ email_verification: true });
    localStorage.setItem('aff', 'INV1');
    renderPage(<RegisterPage />, { path: '/register' });
    expect(await screen.findByLabelText('Verification code')).toBeTruthy();
    type('Username', 'newuser');
    type('Password', 'long-enough-1');
    type('Confirm password', 'long-enough-1');
    type('Email', 'new@example.com');
    type('Verification code', '123456');
    fireEvent.click(screen.getByRole('button', { name: 'Register' }));
    await waitFor(() => expect(calls.some((c) => c.path === '/api/user/register')).toBe(true));
    expect(calls.find((c) => c.path === '/api/user/register')?.body).toEqual({
      username: 'newuser',
      password: 'long-enough-1',
      password2: 'long-enough-1',
      email: 'new@example.com',
      verification_code: '123456',
      aff_code: 'INV1',
    });
  });

  it('has no email fields when the site does not verify email', async () => {
    const calls = serve({ email_verification: false });
    renderPage(<RegisterPage />, { path: '/register' });
    await waitFor(() => expect(calls.some((c) => c.path === '/api/status')).toBe(true));
    expect(screen.queryByLabelText('Verification code')).toBeNull();
  });
});
