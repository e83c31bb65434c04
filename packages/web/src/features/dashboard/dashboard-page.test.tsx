// The data dashboard: whose usage it asks for, the admin-only username filter, and the totals.
import { cleanup, screen } from '@testing-library/react';
import type { DashboardRow } from '@sluice/shared';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadSections } from '../../i18n';
import { clearUser, setUser } from '../../lib/session';
import { DEFAULT_STATUS } from '../../lib/status';
import { installFetch, ok } from '../../test/fake-fetch';
import { renderPage } from '../../test/render';
import { DashboardPage } from './dashboard-page';

const rows: DashboardRow[] = [
  { model_name: 'gpt-4o-mini', created_at: 1_790_000_000, count: 3, quota: 250_000, token_used: 1200 },
  { model_name: 'gpt-4.1', created_at: 1_790_003_600, count: 2, quota: 500_000, token_used: 800 },
];

function serve(enabled = true) {
  return installFetch({
    'GET /api/status': ok({
      ...DEFAULT_STATUS,
      enable_data_export: enabled,
      data_export_default_time: 'day',
    }),
    'GET /api/data/': ok(rows),
    'GET /api/data/self': ok(rows),
  });
}

const signIn = (role: number) =>
  setUser({ id: 7, username: 'someone', display_name: '', role, status: 1, group: 'default' });

// See logs-page.test.tsx: the first render loads antd's modules.
vi.setConfig({ testTimeout: 20_000 });

beforeAll(() => loadSections());
beforeEach(() => localStorage.clear());
afterEach(() => {
  cleanup();
  clearUser();
  vi.unstubAllGlobals();
});

describe('data dashboard', () => {
  it('shows a user the totals of their own usage, without the username filter', async () => {
    signIn(1);
    const calls = serve();
    renderPage(<DashboardPage />, { path: '/detail' });
    expect(await screen.findByText('$1.50')).toBeTruthy();
    expect(screen.getByText('5')).toBeTruthy();
    expect(screen.getByText('2,000')).toBeTruthy();
    const call = calls.find((c) => c.path === '/api/data/self');
    expect(call?.query.get('granularity')).toBeTruthy();
    expect(call?.query.has('utc_offset')).toBe(true);
    expect(calls.some((c) => c.path === '/api/data/')).toBe(false);
    expect(screen.queryByLabelText('Username')).toBeNull();
    // Calls by model, most first.
    expect(screen.getAllByText('gpt-4o-mini').length).toBeGreaterThan(0);
  });

  it('gives an admin everyone’s usage and the username filter', async () => {
    signIn(10);
    const calls = serve();
    renderPage(<DashboardPage />, { path: '/detail' });
    expect(await screen.findByText('$1.50')).toBeTruthy();
    expect(calls.some((c) => c.path === '/api/data/')).toBe(true);
    expect(screen.getByLabelText('Username')).toBeTruthy();
  });

  it('says so when the site has not enabled it', async () => {
    signIn(1);
    serve(false);
    renderPage(<DashboardPage />, { path: '/detail' });
    expect(await screen.findByText(/The data dashboard is not enabled/)).toBeTruthy();
  });
});
