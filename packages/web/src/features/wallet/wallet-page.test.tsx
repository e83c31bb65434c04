// The wallet as a user meets it: balance, redeeming a code (and its messages), the top-up link, and
// online top-up's amount rules, live price, confirm dialog and hand-over to the gateway.
import { cleanup, configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { PublicUser } from '@sluice/shared';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadSections } from '../../i18n';
import { clearUser, setUser } from '../../lib/session';
import { DEFAULT_STATUS } from '../../lib/status';
import type { SiteStatus } from '../../lib/status';
import { failure, installFetch, ok } from '../../test/fake-fetch';
import type { FakeRoute, RecordedCall } from '../../test/fake-fetch';
import { renderPage } from '../../test/render';
import { amountAllowed, minTopupAmount, normaliseAmount } from './topup-rules';
import { WalletPage } from './wallet-page';

const me = { id: 2, username: 'alice', quota: 1_000_000 } as PublicUser;
const ONLINE: Partial<SiteStatus> = { enable_online_topup: true, min_topup: 5, top_up_link: '' };

function serve(status: Partial<SiteStatus>, routes: Record<string, FakeRoute> = {}): RecordedCall[] {
  return installFetch({
    'GET /api/status': ok({ ...DEFAULT_STATUS, ...status }),
    'GET /api/user/self': ok(me),
    'POST /api/user/amount': (request) =>
      request.json().then((body: { amount: number }) => ok((body.amount * 7.3).toFixed(2), 'success')),
    ...routes,
  });
}

const called = (calls: RecordedCall[], method: string, path: string) =>
  calls.filter((c) => c.method === method && c.path === path);

const amountField = () => screen.getByLabelText('Top-up amount (USD)') as HTMLInputElement;
const priceText = () => screen.getByTestId('topup-price').textContent;

vi.setConfig({ testTimeout: 30_000 });
configure({ asyncUtilTimeout: 5_000 });

beforeAll(() => loadSections());
beforeEach(() => {
  localStorage.clear();
  setUser({ id: 2, username: 'alice', display_name: '', role: 1, status: 1, group: 'default' });
});
afterEach(() => {
  cleanup();
  clearUser();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('top-up amount rules', () => {
  it('the minimum is min_topup dollars, or that much quota when the site shows quota', () => {
    expect(minTopupAmount({ min_topup: 5, display_in_currency: true, quota_per_unit: 500_000 })).toBe(5);
    expect(minTopupAmount({ min_topup: 2, display_in_currency: false, quota_per_unit: 500_000 })).toBe(
      1_000_000,
    );
    expect(minTopupAmount({ min_topup: 0, display_in_currency: true, quota_per_unit: 500_000 })).toBe(1);
  });

  it('entries below 1 become 1, fractions are dropped, empty stays empty', () => {
    expect(normaliseAmount(0)).toBe(1);
    expect(normaliseAmount(-3)).toBe(1);
    expect(normaliseAmount(7.9)).toBe(7);
    expect(normaliseAmount(null)).toBeNull();
    expect(amountAllowed(4, 5)).toBe(false);
    expect(amountAllowed(5, 5)).toBe(true);
    expect(amountAllowed(null, 1)).toBe(false);
  });
});

describe('redeeming a code', () => {
  it('shows the balance, asks for a code, and on success shows the gain and the new balance', async () => {
    let balance = 1_000_000;
    const calls = serve(ONLINE, {
      'GET /api/user/self': () => ok({ ...me, quota: balance }),
      'POST /api/user/topup': () => {
        balance += 100_000;
        return ok(100_000);
      },
    });
    renderPage(<WalletPage />, { path: '/topup' });
    expect(await screen.findByText('$2.00')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: /Redeem$/ }));
    expect(await screen.findByText('please enter a redemption code')).toBeTruthy();
    expect(called(calls, 'POST', '/api/user/topup')).toHaveLength(0);

    fireEvent.change(screen.getByLabelText('Redemption code'), { target: { value: ' CODE-1 ' } });
    fireEvent.click(screen.getByRole('button', { name: /Redeem$/ }));
    expect(await screen.findByText('code redeemed: $0.20 added to your balance')).toBeTruthy();
    expect(called(calls, 'POST', '/api/user/topup')[0]?.body).toEqual({ key: 'CODE-1' });
    expect(await screen.findByText('$2.20')).toBeTruthy();
    expect((screen.getByLabelText('Redemption code') as HTMLInputElement).value).toBe('');
  });

  it('shows the server reason for a refused code', async () => {
    serve(ONLINE, { 'POST /api/user/topup': failure(400, 'the redemption code has already been used') });
    renderPage(<WalletPage />, { path: '/topup' });
    fireEvent.change(await screen.findByLabelText('Redemption code'), { target: { value: 'used-one' } });
    fireEvent.click(screen.getByRole('button', { name: /Redeem$/ }));
    expect(await screen.findByText('the redemption code has already been used')).toBeTruthy();
  });

  it('says "request failed" when the server cannot be reached', async () => {
    serve(ONLINE, {
      'POST /api/user/topup': () => {
        throw new TypeError('Failed to fetch');
      },
    });
    renderPage(<WalletPage />, { path: '/topup' });
    fireEvent.change(await screen.findByLabelText('Redemption code'), { target: { value: 'any' } });
    fireEvent.click(screen.getByRole('button', { name: /Redeem$/ }));
    expect(await screen.findByText('request failed')).toBeTruthy();
  });

  it('the top-up link button says when the super admin has not set one', async () => {
    serve(ONLINE);
    renderPage(<WalletPage />, { path: '/topup' });
    fireEvent.click(await screen.findByRole('button', { name: /Buy a redemption code/ }));
    expect(await screen.findByText('the super administrator has not set a top-up link')).toBeTruthy();
  });

  it('the top-up link button opens the configured link in a new tab', async () => {
    serve({ ...ONLINE, top_up_link: 'https://shop.example/codes' });
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    renderPage(<WalletPage />, { path: '/topup' });
    await screen.findByText('$2.00');
    await waitFor(() => {
      fireEvent.click(screen.getByRole('button', { name: /Buy a redemption code/ }));
      expect(open).toHaveBeenCalledWith('https://shop.example/codes', '_blank', 'noopener,noreferrer');
    });
  });
});

describe('online top-up', () => {
  it('tells the user when the admin has not enabled it', async () => {
    serve({ enable_online_topup: false });
    renderPage(<WalletPage />, { path: '/topup' });
    expect(await screen.findByText('the administrator has not enabled online top-up')).toBeTruthy();
    expect(amountField().disabled).toBe(true);
    expect(screen.getByRole('button', { name: /Alipay/ })).toHaveProperty('disabled', true);
  });

  it('starts at the minimum and shows the live price from the server', async () => {
    const calls = serve(ONLINE);
    renderPage(<WalletPage />, { path: '/topup' });
    await waitFor(() => expect(amountField().value).toBe('5'));
    await waitFor(() => expect(priceText()).toBe('¥36.50'));
    fireEvent.change(amountField(), { target: { value: '10' } });
    await waitFor(() => expect(priceText()).toBe('¥73.00'));
    expect(called(calls, 'POST', '/api/user/amount').at(-1)?.body).toEqual({ amount: 10, top_up_code: '' });
  });

  it('raises entries below 1 to 1 and refuses amounts below the minimum', async () => {
    const calls = serve(ONLINE);
    renderPage(<WalletPage />, { path: '/topup' });
    await waitFor(() => expect(amountField().value).toBe('5'));
    fireEvent.change(amountField(), { target: { value: '0' } });
    fireEvent.blur(amountField());
    await waitFor(() => expect(amountField().value).toBe('1'));
    expect(priceText()).toBe('top-up amount cannot be less than 5');
    fireEvent.click(screen.getByRole('button', { name: /Alipay/ }));
    expect(await screen.findAllByText('top-up amount cannot be less than 5')).toHaveLength(2);
    expect(called(calls, 'POST', '/api/user/pay')).toHaveLength(0);
    expect(screen.queryByText('Confirm top-up')).toBeNull();
  });

  it('shows the server text when the price cannot be looked up', async () => {
    serve(ONLINE, { 'POST /api/user/amount': failure(400, 'the amount to pay is too low') });
    renderPage(<WalletPage />, { path: '/topup' });
    await waitFor(() => expect(priceText()).toBe('the amount to pay is too low'));
  });

  it('confirms amount and price, then posts the signed fields to the gateway', async () => {
    const fields = {
      pid: '1001',
      type: 'wxpay',
      out_trade_no: 'USR2NOabc',
      notify_url: 'https://api.example.com/api/user/epay/notify',
      return_url: 'https://api.example.com/log',
      name: 'TUC10',
      money: '73.00',
      sign: 'deadbeef',
      sign_type: 'MD5',
    };
    const calls = serve(ONLINE, {
      'POST /api/user/pay': {
        body: { success: true, message: 'success', data: fields, url: 'https://pay.example/submit.php' },
      },
    });
    const submitted: Array<{ action: string; method: string; fields: Record<string, string> }> = [];
    vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(function (this: HTMLFormElement) {
      const values: Record<string, string> = {};
      for (const input of Array.from(this.querySelectorAll('input'))) values[input.name] = input.value;
      submitted.push({ action: this.action, method: this.method.toLowerCase(), fields: values });
    });
    renderPage(<WalletPage />, { path: '/topup' });
    await waitFor(() => expect(amountField().value).toBe('5'));
    fireEvent.change(amountField(), { target: { value: '10' } });
    fireEvent.click(screen.getByRole('button', { name: /WeChat Pay/ }));

    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Confirm top-up')).toBeTruthy();
    expect(within(dialog).getByText('10')).toBeTruthy();
    expect(within(dialog).getByText('¥73.00')).toBeTruthy();
    expect(within(dialog).getByText('WeChat Pay')).toBeTruthy();
    expect(called(calls, 'POST', '/api/user/pay')).toHaveLength(0);

    fireEvent.click(within(dialog).getByRole('button', { name: 'Pay' }));
    await waitFor(() => expect(submitted).toHaveLength(1));
    expect(called(calls, 'POST', '/api/user/pay')[0]?.body).toEqual({
      amount: 10,
      top_up_code: '',
      payment_method: 'wx',
    });
    expect(called(calls, 'POST', '/api/user/pay')[0]?.headers.get('New-Api-User')).toBe('2');
    expect(submitted[0]).toEqual({
      action: 'https://pay.example/submit.php',
      method: 'post',
      fields,
    });
  });

  it('a refused order keeps the dialog open and shows the server reason', async () => {
    serve(ONLINE, {
      'POST /api/user/pay': failure(
        400,
        'the administrator has not set the server address that payments report back to',
      ),
    });
    const submit = vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(() => undefined);
    renderPage(<WalletPage />, { path: '/topup' });
    await waitFor(() => expect(amountField().value).toBe('5'));
    fireEvent.click(screen.getByRole('button', { name: /Alipay/ }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Pay' }));
    expect(
      await screen.findByText(
        'the administrator has not set the server address that payments report back to',
      ),
    ).toBeTruthy();
    expect(submit).not.toHaveBeenCalled();
    expect(within(dialog).getByText('Confirm top-up')).toBeTruthy();
  });
});
