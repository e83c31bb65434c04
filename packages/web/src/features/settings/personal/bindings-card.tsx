// External accounts bound to this user: email (with a code), WeChat (code), GitHub and LinuxDO
// (through the provider), Telegram (its widget). Only the methods the site enables are offered.
import { GithubOutlined, MailOutlined, SendOutlined, WechatOutlined } from '@ant-design/icons';
import { Avatar, Button, Card, Form, List, Modal, Typography } from 'antd';
import type { PublicUser } from '@sluice/shared';
import { useCallback, useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { TelegramWidget, telegramQuery } from '../../../components/telegram-widget';
import { useTurnstile } from '../../../components/turnstile';
import { useStatus } from '../../../lib/status';
import { sendVerificationCode, startOAuth } from '../../auth/api';
import type { OAuthProvider } from '../../auth/api';
import { EmailCodeFields } from '../../auth/components/email-code-field';
import { WeChatCodeModal } from '../../auth/components/wechat-code-modal';
import { useBindEmail, useBindTelegram, useBindWeChat } from './api';
import { useFeedback } from '../../../components/feedback';

type Dialog = 'email' | 'wechat' | 'telegram' | null;

function EmailBindModal({ open, onClose }: { open: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const [form] = Form.useForm<{ email: string; code: string }>();
  const bind = useBindEmail();
  const turnstile = useTurnstile();

  const submit = ({ email, code }: { email: string; code: string }) =>
    bind.mutate(
      { email: email.trim(), code: code.trim() },
      {
        onSuccess: () => {
          void message.success(t('msg.bindSuccess'));
          onClose();
        },
      },
    );

  return (
    <Modal
      open={open}
      title={t('personal.bindEmailTitle')}
      onCancel={onClose}
      onOk={() => form.submit()}
      confirmLoading={bind.isPending}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" onFinish={submit} requiredMark={false}>
        <EmailCodeFields
          form={form}
          codeName="code"
          send={async (email) => {
            if (!turnstile.ready()) return false;
            await sendVerificationCode(email, turnstile.token);
            void message.success(t('auth.codeSent'));
            return true;
          }}
        />
        {turnstile.widget}
      </Form>
    </Modal>
  );
}

interface BindingRow {
  key: string;
  icon: ReactNode;
  name: string;
  value: string;
  action: ReactNode;
}

export function BindingsCard({ user }: { user: PublicUser }) {
  const { t, i18n } = useTranslation();
  const { message } = useFeedback();
  const status = useStatus();
  const [dialog, setDialog] = useState<Dialog>(null);
  const bindWeChat = useBindWeChat();
  const bindTelegram = useBindTelegram();
  const close = () => setDialog(null);

  const onTelegram = useCallback(
    (data: Parameters<typeof telegramQuery>[0]) =>
      bindTelegram.mutate(telegramQuery(data, i18n.language), {
        onSuccess: () => {
          void message.success(t('msg.bindSuccess'));
          setDialog(null);
        },
      }),
    [bindTelegram, i18n.language, message, t],
  );

  const oauthButton = (provider: OAuthProvider, clientId: string, bound: string) => (
    <Button
      disabled={bound !== ''}
      onClick={() => void startOAuth(provider, clientId).catch(() => undefined)}
    >
      {bound ? t('personal.bound') : t('personal.bind')}
    </Button>
  );
  const shown = (value: string) => value || t('personal.notBound');

  const rows: Array<BindingRow | false> = [
    {
      key: 'email',
      icon: <MailOutlined />,
      name: t('personal.email'),
      value: shown(user.email),
      action: (
        <Button onClick={() => setDialog('email')}>
          {user.email ? t('personal.change') : t('personal.bind')}
        </Button>
      ),
    },
    status.wechat_login && {
      key: 'wechat',
      icon: <WechatOutlined />,
      name: t('wechat.name'),
      value: user.wechat_id ? t('personal.bound') : t('personal.notBound'),
      action: (
        <Button disabled={user.wechat_id !== ''} onClick={() => setDialog('wechat')}>
          {user.wechat_id ? t('personal.bound') : t('personal.bind')}
        </Button>
      ),
    },
    status.github_oauth && {
      key: 'github',
      icon: <GithubOutlined />,
      name: 'GitHub',
      value: shown(user.github_id),
      action: oauthButton('github', status.github_client_id, user.github_id),
    },
    status.linuxdo_oauth && {
      key: 'linuxdo',
      icon: <Avatar size="small">L</Avatar>,
      name: 'LinuxDO',
      value: shown(user.linux_do_id),
      action: oauthButton('linuxdo', status.linuxdo_client_id, user.linux_do_id),
    },
    status.telegram_oauth && {
      key: 'telegram',
      icon: <SendOutlined />,
      name: 'Telegram',
      value: shown(user.telegram_id),
      action: (
        <Button disabled={user.telegram_id !== ''} onClick={() => setDialog('telegram')}>
          {user.telegram_id ? t('personal.bound') : t('personal.bind')}
        </Button>
      ),
    },
  ];

  return (
    <Card title={t('personal.bindingsTitle')} style={{ height: '100%' }}>
      <List
        dataSource={rows.filter((row): row is BindingRow => row !== false)}
        renderItem={(row) => (
          <List.Item key={row.key} actions={[row.action]}>
            <List.Item.Meta
              avatar={row.icon}
              title={row.name}
              description={
                <Typography.Text type="secondary" ellipsis style={{ maxWidth: 220 }}>
                  {row.value}
                </Typography.Text>
              }
            />
          </List.Item>
        )}
      />
      {dialog === 'email' && <EmailBindModal open onClose={close} />}
      <WeChatCodeModal
        open={dialog === 'wechat'}
        title={t('personal.bindWeChatTitle')}
        onClose={close}
        onSubmit={async (code) => {
          await bindWeChat.mutateAsync(code);
          void message.success(t('msg.bindSuccess'));
          close();
        }}
      />
      <Modal
        open={dialog === 'telegram'}
        title={t('personal.bindTelegramTitle')}
        onCancel={close}
        footer={null}
        destroyOnHidden
      >
        {status.telegram_bot_name && (
          <TelegramWidget botName={status.telegram_bot_name} onAuth={onTelegram} />
        )}
      </Modal>
    </Card>
  );
}
