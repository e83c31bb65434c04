// The top bar's register button follows the site's registration switches, and the New Year easter
// egg appears on its days only.
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearUser } from '../../lib/session';
import { DEFAULT_STATUS } from '../../lib/status';
import { installFetch, ok } from '../../test/fake-fetch';
import { renderPage } from '../../test/render';
import { TopBar } from './top-bar';

function show(status: Partial<typeof DEFAULT_STATUS> = {}) {
  const calls = installFetch({ 'GET /api/status': ok({ ...DEFAULT_STATUS, ...status }) });
  renderPage(<TopBar isMobile={false} />);
  return calls;
}

beforeEach(() => {
  localStorage.clear();
  clearUser();
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('top bar', () => {
  it('offers Register while registration is open and hides it when either switch is off', async () => {
    show();
    expect(await screen.findByRole('button', { name: 'Register' })).toBeTruthy();
    cleanup();
    for (const closed of [{ register_enabled: false }, { password_register: false }]) {
      const calls = show(closed);
      await waitFor(() => expect(calls.some((c) => c.path === '/api/status')).toBe(true));
      await waitFor(() => expect(screen.queryByRole('button', { name: 'Register' })).toBeNull());
      expect(screen.getByRole('button', { name: 'Log in' })).toBeTruthy();
      cleanup();
    }
  });

  it('shows the New Year button on New Year’s Day and the Lunar New Year only', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    for (const day of [new Date(2026, 0, 1, 9), new Date(2026, 1, 17, 20)]) {
      vi.setSystemTime(day);
      show();
      expect(await screen.findByRole('button', { name: 'New Year celebration' })).toBeTruthy();
      cleanup();
    }
    vi.setSystemTime(new Date(2026, 1, 18, 9));
    show();
    await screen.findByRole('button', { name: 'Log in' });
    expect(screen.queryByRole('button', { name: 'New Year celebration' })).toBeNull();
  });
});
