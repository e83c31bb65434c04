// The browser tab follows the site: its title is the SystemName option and its icon the Logo
// option, from the stored status at once, then from the server's answer and after every save.
import { useEffect } from 'react';
import { DEFAULT_STATUS, useStatus } from '../../lib/status';

/** The console's own icon (index.html), shown while the site sets no logo. */
export const DEFAULT_FAVICON = '/favicon.svg';

export function applySiteBranding(doc: Document, { systemName, logo }: { systemName: string; logo: string }) {
  doc.title = systemName.trim() || DEFAULT_STATUS.system_name;
  let icon = doc.head.querySelector<HTMLLinkElement>('link[rel~="icon"]');
  if (!icon) {
    icon = doc.createElement('link');
    icon.rel = 'icon';
    doc.head.appendChild(icon);
  }
  const href = logo.trim() || DEFAULT_FAVICON;
  if (icon.getAttribute('href') === href) return;
  // The type told the browser the default icon is SVG; a site's logo may be anything.
  if (href === DEFAULT_FAVICON) icon.type = 'image/svg+xml';
  else icon.removeAttribute('type');
  icon.href = href;
}

export function useSiteBranding(): void {
  const { system_name: systemName, logo } = useStatus();
  useEffect(() => applySiteBranding(document, { systemName, logo }), [systemName, logo]);
}
