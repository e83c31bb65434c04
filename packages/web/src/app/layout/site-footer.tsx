// The footer: the site's own HTML (sanitised) when configured, else the default credit line.
import { Layout, theme } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { readStoredStatus, useStatus, useStatusLoaded } from '../../lib/status';

/** How often, and how many times, the footer re-reads the stored status after it arrives. */
export const FOOTER_POLL = { times: 5, intervalMs: 200 } as const;

/** The sanitiser loads only for sites that set a footer. */
function useSanitized(html: string): string | null {
  const [clean, setClean] = useState<{ html: string; clean: string } | null>(null);
  useEffect(() => {
    if (!html) return;
    let live = true;
    void import('../../lib/sanitize').then(({ sanitizeHtml }) => {
      if (live) setClean({ html, clean: sanitizeHtml(html) });
    });
    return () => {
      live = false;
    };
  }, [html]);
  return clean && clean.html === html ? clean.clean : null;
}

export function SiteFooter() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const status = useStatus();
  const loaded = useStatusLoaded();
  const [polled, setPolled] = useState<string | null>(null);

  // The spec's footer re-reads the stored status a few times after it is fetched, so a footer
  // written to storage by another part of the page (e.g. settings being saved) shows up too.
  useEffect(() => {
    if (!loaded) return;
    let count = 0;
    const timer = window.setInterval(() => {
      count += 1;
      const stored = readStoredStatus();
      if (stored) setPolled(stored.footer_html);
      if (count >= FOOTER_POLL.times) window.clearInterval(timer);
    }, FOOTER_POLL.intervalMs);
    return () => window.clearInterval(timer);
  }, [loaded, status.footer_html]);

  const footerHtml = polled ?? status.footer_html;
  const clean = useSanitized(footerHtml);

  return (
    <Layout.Footer style={{ textAlign: 'center', padding: '16px 24px', color: token.colorTextSecondary }}>
      {footerHtml ? (
        clean !== null && <div className="custom-footer" dangerouslySetInnerHTML={{ __html: clean }} />
      ) : (
        <span>{t('footer.credit')}</span>
      )}
    </Layout.Footer>
  );
}
