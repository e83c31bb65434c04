// The third-party sign-in choices the site enables: GitHub and LinuxDO go to the provider's
// authorize page, WeChat asks for a code, Telegram shows its own widget.
import { GithubOutlined, WechatOutlined } from '@ant-design/icons';
import { Button, Divider, Flex } from 'antd';
import { Suspense, lazy, useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { TelegramWidget, telegramQuery } from '../../../components/telegram-widget';
import { useStatus } from '../../../lib/status';
import { startOAuth, telegramLogin, useSignIn, wechatLogin } from '../api';
import type { OAuthProvider } from '../api';
import { LinuxDoIcon } from './linuxdo-icon';

import { useFeedback } from '../../../components/feedback';

// Loaded when the WeChat button is pressed: most sites never show it.
const WeChatCodeModal = lazy(() =>
  import('./wechat-code-modal').then((m) => ({ default: m.WeChatCodeModal })),
);

export function ThirdPartyLogin() {
  const { t, i18n } = useTranslation();
  const status = useStatus();
  const { message } = useFeedback();
  const navigate = useNavigate();
  const signIn = useSignIn();
  const [wechatOpen, setWechatOpen] = useState(false);
  const [redirecting, setRedirecting] = useState<OAuthProvider | null>(null);

  const finish = useCallback(
    (user: Parameters<typeof signIn>[0]) => {
      signIn(user);
      void message.success(t('auth.loginSuccess'));
      void navigate('/');
    },
    [signIn, message, t, navigate],
  );

  const go = async (provider: OAuthProvider, clientId: string) => {
    setRedirecting(provider);
    try {
      await startOAuth(provider, clientId);
    } catch {
      setRedirecting(null);
    }
  };

  const onTelegram = useCallback(
    (user: Parameters<typeof telegramQuery>[0]) => {
      telegramLogin(telegramQuery(user, i18n.language))
        .then(finish)
        .catch(() => undefined);
    },
    [finish, i18n.language],
  );

  const any = status.github_oauth || status.linuxdo_oauth || status.wechat_login || status.telegram_oauth;
  if (!any) return null;

  return (
    <>
      <Divider plain>{t('auth.orContinueWith')}</Divider>
      <Flex justify="center" gap={12} wrap>
        {/* Each choice names its provider in visible text; the accessible name says what it does. */}
        {status.github_oauth && (
          <Button
            icon={<GithubOutlined />}
            aria-label={t('auth.loginWith', { provider: 'GitHub' })}
            loading={redirecting === 'github'}
            onClick={() => void go('github', status.github_client_id)}
          >
            GitHub
          </Button>
        )}
        {status.linuxdo_oauth && (
          <Button
            icon={<LinuxDoIcon />}
            aria-label={t('auth.loginWith', { provider: 'LinuxDO' })}
            loading={redirecting === 'linuxdo'}
            onClick={() => void go('linuxdo', status.linuxdo_client_id)}
          >
            LinuxDO
          </Button>
        )}
        {status.wechat_login && (
          <Button
            icon={<WechatOutlined />}
            aria-label={t('auth.loginWith', { provider: t('wechat.name') })}
            onClick={() => setWechatOpen(true)}
          >
            {t('wechat.name')}
          </Button>
        )}
      </Flex>
      {status.telegram_oauth && status.telegram_bot_name && (
        <div style={{ marginTop: 12 }}>
          <TelegramWidget botName={status.telegram_bot_name} onAuth={onTelegram} />
        </div>
      )}
      {wechatOpen && (
        <Suspense fallback={null}>
          <WeChatCodeModal
            open={wechatOpen}
            title={t('wechat.loginTitle')}
            onClose={() => setWechatOpen(false)}
            onSubmit={async (code) => {
              finish(await wechatLogin(code));
              setWechatOpen(false);
            }}
          />
        </Suspense>
      )}
    </>
  );
}
