// Cloudflare Turnstile (the human check) when the site turns it on; the token goes to the server as
// ?turnstile=. useTurnstile gives the widget and a guard for submit handlers.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useStatus } from '../lib/status';
import { loadScript } from './external-script';
import { useFeedback } from './feedback';

const SCRIPT = 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit';

interface TurnstileApi {
  render(
    element: HTMLElement,
    options: { sitekey: string; callback(token: string): void; 'expired-callback'(): void },
  ): string;
  remove(widgetId: string): void;
}

declare global {
  interface Window {
    turnstile?: TurnstileApi;
  }
}

function TurnstileWidget({ siteKey, onToken }: { siteKey: string; onToken(token: string): void }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    let widgetId: string | undefined;
    let cancelled = false;
    loadScript(SCRIPT)
      .then(() => {
        if (cancelled || !ref.current || !window.turnstile) return;
        widgetId = window.turnstile.render(ref.current, {
          sitekey: siteKey,
          callback: onToken,
          'expired-callback': () => onToken(''),
        });
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
      if (widgetId && window.turnstile) window.turnstile.remove(widgetId);
    };
  }, [siteKey, onToken]);
  return <div ref={ref} style={{ minHeight: 65, display: 'flex', justifyContent: 'center' }} />;
}

export interface TurnstileState {
  /** The widget to place in the form, or null when the site does not use the check. */
  widget: ReactNode;
  /** The token to send (undefined when the check is off). */
  token: string | undefined;
  /** False, with the spec's message shown, while the check is on and has no token yet. */
  ready(): boolean;
}

export function useTurnstile(): TurnstileState {
  const status = useStatus();
  const { message } = useFeedback();
  const { t } = useTranslation();
  const [token, setToken] = useState('');
  const enabled = status.turnstile_check && status.turnstile_site_key !== '';
  const onToken = useCallback((next: string) => setToken(next), []);
  return {
    widget: enabled ? <TurnstileWidget siteKey={status.turnstile_site_key} onToken={onToken} /> : null,
    token: enabled ? token : undefined,
    ready: () => {
      if (!enabled || token !== '') return true;
      void message.info(t('msg.turnstileChecking'));
      return false;
    },
  };
}
