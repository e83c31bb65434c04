// /oauth/github and /oauth/linuxdo: the provider sends the browser back here with code and state.
// The server either binds the account to the signed-in user (message 'bind') or signs in.
import { Result, Spin } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { NotFoundPage } from '../../app/status-pages';
import { ApiError, translateServerMessage } from '../../lib/api';
import { oauthCallback, useSignIn } from './api';
import type { OAuthProvider } from './api';
import { useFeedback } from '../../components/feedback';

const isProvider = (value: string | undefined): value is OAuthProvider =>
  value === 'github' || value === 'linuxdo';

export function OAuthCallbackPage() {
  const { provider } = useParams();
  return isProvider(provider) ? <OAuthCallback provider={provider} /> : <NotFoundPage />;
}

function OAuthCallback({ provider }: { provider: OAuthProvider }) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { message } = useFeedback();
  const signIn = useSignIn();
  // The code is single-use: run once even when React mounts the page twice in development.
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const code = params.get('code') ?? '';
    const state = params.get('state') ?? '';
    const giveUp = () => {
      void message.error(t('oauth.failedRedirect'));
      void navigate('/login', { replace: true });
    };
    oauthCallback(provider, code, state)
      .then(({ message: text, data }) => {
        if (text === 'bind') {
          void message.success(t('msg.bindSuccess'));
          void navigate('/setting?tab=personal', { replace: true });
        } else if (data) {
          signIn(data);
          void message.success(t('auth.loginSuccess'));
          void navigate('/', { replace: true });
        } else {
          giveUp();
        }
      })
      .catch((error: unknown) => {
        if (error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 401) {
          // The server said why (bad state, account bound elsewhere…).
          void message.error(translateServerMessage(error.message));
          void navigate('/setting?tab=personal', { replace: true });
        } else if (!(error instanceof ApiError && error.status === 401)) {
          giveUp();
        }
      });
  }, [provider, params, navigate, message, t, signIn]);

  return (
    <Result
      icon={<Spin size="large" />}
      title={t('oauth.processing', { provider: provider === 'github' ? 'GitHub' : 'LinuxDO' })}
    />
  );
}
