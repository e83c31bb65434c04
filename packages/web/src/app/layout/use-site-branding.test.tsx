// The browser tab follows SystemName and Logo from the site status.
import { cleanup, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_STATUS } from '../../lib/status';
import { installFetch, ok } from '../../test/fake-fetch';
import { renderPage } from '../../test/render';
import { DEFAULT_FAVICON, applySiteBranding, useSiteBranding } from './use-site-branding';

const icon = () => document.head.querySelector<HTMLLinkElement>('link[rel~="icon"]');

function Branded() {
  useSiteBranding();
  return <p>page</p>;
}

beforeEach(() => {
  localStorage.clear();
  document.title = 'Sluice';
  document.head.innerHTML = '<link rel="icon" type="image/svg+xml" href="/favicon.svg" />';
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('site branding', () => {
  it('titles the tab with the system name and shows the logo as its icon once the status arrives', async () => {
    installFetch({
      'GET /api/status': ok({
        ...DEFAULT_STATUS,
        system_name: 'Acme AI',
        logo: 'https://cdn.example.com/acme.png',
      }),
    });
    renderPage(<Branded />);
    await waitFor(() => expect(document.title).toBe('Acme AI'));
    expect(icon()?.getAttribute('href')).toBe('https://cdn.example.com/acme.png');
    // The logo is not necessarily SVG: the default icon's type must not stay on it.
    expect(icon()?.hasAttribute('type')).toBe(false);
    expect(document.head.querySelectorAll('link[rel~="icon"]')).toHaveLength(1);
  });

  it('uses the stored status before the server answers', async () => {
    localStorage.setItem('status', JSON.stringify({ ...DEFAULT_STATUS, system_name: 'Stored Name' }));
    installFetch({ 'GET /api/status': () => new Promise(() => undefined) });
    renderPage(<Branded />);
    await waitFor(() => expect(document.title).toBe('Stored Name'));
  });

  it('goes back to the console’s own icon and name when the site clears them', () => {
    applySiteBranding(document, { systemName: 'Acme', logo: '/uploads/acme.png' });
    expect(icon()?.getAttribute('href')).toBe('/uploads/acme.png');
    applySiteBranding(document, { systemName: '  ', logo: '' });
    expect(document.title).toBe('Sluice');
    expect(icon()?.getAttribute('href')).toBe(DEFAULT_FAVICON);
    expect(icon()?.type).toBe('image/svg+xml');
  });

  it('adds an icon link when the page has none', () => {
    document.head.innerHTML = '';
    applySiteBranding(document, { systemName: 'Acme', logo: 'https://cdn.example.com/a.ico' });
    expect(icon()?.getAttribute('href')).toBe('https://cdn.example.com/a.ico');
  });
});
