// The pricing page as visitors and users meet it: each model's availability and price in the shown
// group, switching groups, the site's currency setting, and searching.
import { cleanup, configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { PricingEntry } from '@sluice/shared';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadSections } from '../../i18n';
import { clearUser, setUser } from '../../lib/session';
import { DEFAULT_STATUS } from '../../lib/status';
import { installFetch, ok } from '../../test/fake-fetch';
import { renderPage } from '../../test/render';
import { PricingPage } from './pricing-page';

vi.setConfig({ testTimeout: 30_000 });
configure({ asyncUtilTimeout: 5_000 });

const models: PricingEntry[] = [
  {
    model_name: 'dall-e-3',
    quota_type: 1,
    model_ratio: 0,
    model_price: 0.04,
    completion_ratio: 1,
    enable_groups: ['vip'],
  },
  {
    model_name: 'gpt-4o-mini',
    quota_type: 0,
    model_ratio: 0.075,
    model_price: 0,
    completion_ratio: 4,
    enable_groups: ['default', 'vip'],
  },
];

function serve({ displayInCurrency = true } = {}) {
  return installFetch({
    'GET /api/status': ok({ ...DEFAULT_STATUS, display_in_currency: displayInCurrency }),
    'GET /api/pricing': {
      body: {
        success: true,
        message: '',
        data: models,
        group_ratio: { default: 1, vip: 2 },
        usable_group: { default: 'Default group', vip: 'VIP group' },
      },
    },
  });
}

async function rowOf(model: string): Promise<HTMLElement> {
  const cell = await screen.findByText(model);
  const row = cell.closest('tr');
  if (!row) throw new Error(`no row for ${model}`);
  return row;
}

beforeAll(() => loadSections());
beforeEach(() => localStorage.clear());
afterEach(() => {
  cleanup();
  clearUser();
  vi.unstubAllGlobals();
});

describe('pricing page', () => {
  it('shows a visitor the default group: availability, billing type, ratios and prices', async () => {
    const calls = serve();
    renderPage(<PricingPage />, { path: '/pricing' });
    expect(await screen.findByRole('heading', { name: 'Model pricing' })).toBeTruthy();

    const mini = await rowOf('gpt-4o-mini');
    expect(within(mini).getByLabelText('The default group can use this model')).toBeTruthy();
    expect(within(mini).getByText('Per usage')).toBeTruthy();
    expect(within(mini).getByText('Model ratio: 0.075')).toBeTruthy();
    expect(within(mini).getByText('Completion ratio: 4')).toBeTruthy();
    expect(within(mini).getByText('Prompt $0.15 / 1M tokens')).toBeTruthy();
    expect(within(mini).getByText('Completion $0.6 / 1M tokens')).toBeTruthy();

    const dalle = await rowOf('dall-e-3');
    expect(within(dalle).getByLabelText('The default group cannot use this model')).toBeTruthy();
    expect(within(dalle).getByText('Per call')).toBeTruthy();
    expect(within(dalle).getByText('$0.04 / call')).toBeTruthy();

    // A visitor sends no user header: the server answers for the default group.
    expect(calls.find((c) => c.path === '/api/pricing')?.headers.get('New-Api-User')).toBeNull();
    expect(screen.getByRole('radio', { name: 'default ×1' })).toHaveProperty('checked', true);
  });

  it('switching the group applies its ratio and its availability', async () => {
    serve();
    renderPage(<PricingPage />, { path: '/pricing' });
    await rowOf('gpt-4o-mini');
    fireEvent.click(await screen.findByRole('radio', { name: 'vip ×2' }));
    const mini = await rowOf('gpt-4o-mini');
    await waitFor(() => expect(within(mini).getByText('Prompt $0.3 / 1M tokens')).toBeTruthy());
    expect(within(mini).getByText('Completion $1.2 / 1M tokens')).toBeTruthy();
    const dalle = await rowOf('dall-e-3');
    expect(within(dalle).getByText('$0.08 / call')).toBeTruthy();
    expect(within(dalle).getByLabelText('The vip group can use this model')).toBeTruthy();
  });

  it('starts a signed-in user on their own group and asks with their id', async () => {
    setUser({ id: 7, username: 'vera', display_name: '', role: 1, status: 1, group: 'vip' });
    const calls = serve();
    renderPage(<PricingPage />, { path: '/pricing' });
    const mini = await rowOf('gpt-4o-mini');
    await waitFor(() => expect(within(mini).getByText('Prompt $0.3 / 1M tokens')).toBeTruthy());
    expect(calls.find((c) => c.path === '/api/pricing')?.headers.get('New-Api-User')).toBe('7');
  });

  it('shows quota units when the site does not display currency', async () => {
    serve({ displayInCurrency: false });
    renderPage(<PricingPage />, { path: '/pricing' });
    const mini = await rowOf('gpt-4o-mini');
    await waitFor(() => expect(within(mini).getByText('Prompt 75k quota / 1M tokens')).toBeTruthy());
    expect(within(mini).getByText('Completion 300k quota / 1M tokens')).toBeTruthy();
    expect(within(await rowOf('dall-e-3')).getByText('20k quota / call')).toBeTruthy();
  });

  it('searches by model name', async () => {
    serve();
    renderPage(<PricingPage />, { path: '/pricing' });
    await rowOf('dall-e-3');
    fireEvent.change(screen.getByLabelText('Search models'), { target: { value: 'mini' } });
    fireEvent.click(screen.getByRole('button', { name: /Query/ }));
    await waitFor(() => expect(screen.queryByText('dall-e-3')).toBeNull());
    expect(await rowOf('gpt-4o-mini')).toBeTruthy();
  });
});
