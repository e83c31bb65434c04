// Telegram's login widget: Telegram's script draws the button and calls us back with the signed
// user data, which the caller sends to the server (login or binding).
import { useEffect, useRef } from 'react';
import type { TelegramAuthQuery } from '@sluice/shared';

const SCRIPT = 'https://telegram.org/js/telegram-widget.js?22';

type TelegramUser = Omit<TelegramAuthQuery, 'id' | 'auth_date' | 'lang'> & { id: number; auth_date: number };

declare global {
  interface Window {
    onTelegramAuth?: (user: TelegramUser) => void;
  }
}

/** The widget's answer in the query shape of /api/oauth/telegram/login and /bind. */
export function telegramQuery(user: TelegramUser, lang: string): TelegramAuthQuery {
  const query: TelegramAuthQuery = {
    id: String(user.id),
    auth_date: String(user.auth_date),
    hash: user.hash,
    lang,
  };
  if (user.first_name) query.first_name = user.first_name;
  if (user.last_name) query.last_name = user.last_name;
  if (user.username) query.username = user.username;
  if (user.photo_url) query.photo_url = user.photo_url;
  return query;
}

export function TelegramWidget({ botName, onAuth }: { botName: string; onAuth(user: TelegramUser): void }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const container = ref.current;
    if (!container) return;
    window.onTelegramAuth = onAuth;
    const script = document.createElement('script');
    script.src = SCRIPT;
    script.async = true;
    script.setAttribute('data-telegram-login', botName);
    script.setAttribute('data-size', 'large');
    script.setAttribute('data-request-access', 'write');
    script.setAttribute('data-onauth', 'onTelegramAuth(user)');
    container.appendChild(script);
    return () => {
      container.replaceChildren();
      if (window.onTelegramAuth === onAuth) delete window.onTelegramAuth;
    };
  }, [botName, onAuth]);
  return <div ref={ref} style={{ display: 'flex', justifyContent: 'center', minHeight: 40 }} />;
}
