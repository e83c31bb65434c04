// The home page's announcement (Notice option): rendered from Markdown for visitors, closed for good
// for the same text, shown again when the administrator changes it.
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearUser } from '../../lib/session';
import { DEFAULT_STATUS } from '../../lib/status';
import { installFetch, ok } from '../../test/fake-fetch';
import { renderPage } from '../../test/render';
import { HomePage } from './home-page';

function serve(notice: string) {
  return installFetch({
    'GET /api/status': ok(DEFAULT_STATUS),
    'GET /api/notice': ok(notice),
    'GET /api/home_page_content': ok(''),
  });
}

const announcement = () => screen.findByRole('region', { name: 'Announcement' });

beforeEach(() => {
  localStorage.clear();
  clearUser();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('home page announcement', () => {
  // Sanitising is checked in the browser suite (e2e/look.spec.ts): happy-dom's DOM leaves DOMPurify
  // unable to strip attributes, so it cannot be judged here.
  it('shows the notice to a visitor, rendered from Markdown', async () => {
    serve('**Maintenance** tonight, see [the status page](https://status.example.com)');
    renderPage(<HomePage />);
    const notice = await announcement();
    expect(notice.querySelector('strong')?.textContent).toBe('Maintenance');
    expect(notice.querySelector('a')?.getAttribute('href')).toBe('https://status.example.com');
    // The welcome panel is still there below it.
    expect(await screen.findByRole('heading', { name: 'Welcome to Sluice' })).toBeTruthy();
  });

  it('stays closed for the same text and shows again when the text changes', async () => {
    serve('Prices change on 1 March.');
    renderPage(<HomePage />);
    await announcement();
    fireEvent.click(screen.getByRole('button', { name: 'Close the announcement' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Announcement' })).toBeNull());
    expect(localStorage.getItem('notice')).toBe('Prices change on 1 March.');

    // Next visit, same announcement: nothing.
    cleanup();
    const calls = serve('Prices change on 1 March.');
    renderPage(<HomePage />);
    await screen.findByRole('heading', { name: 'Welcome to Sluice' });
    await waitFor(() => expect(calls.some((c) => c.path === '/api/notice')).toBe(true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('region', { name: 'Announcement' })).toBeNull();

    // The administrator edits it: it is back.
    cleanup();
    serve('Prices change on 1 April.');
    renderPage(<HomePage />);
    expect((await announcement()).textContent).toContain('Prices change on 1 April.');
  });

  it('shows nothing when the site has no announcement', async () => {
    const calls = serve('  ');
    renderPage(<HomePage />);
    await screen.findByRole('heading', { name: 'Welcome to Sluice' });
    await waitFor(() => expect(calls.some((c) => c.path === '/api/notice')).toBe(true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('region', { name: 'Announcement' })).toBeNull();
  });
});
