// Account actions: a system access token for API scripts, a new password, deleting the account.
import { CopyOutlined, DeleteOutlined, KeyOutlined, LockOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Flex, Form, Input, Modal, Space, Typography } from 'antd';
import { passwordSchema } from '@sluice/shared';
import type { PublicUser } from '@sluice/shared';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { useCopy } from '../../../components/copy';
import { zodRule } from '../../../lib/form-rules';
import { clearUser } from '../../../lib/session';
import { useChangePassword, useDeleteSelf, useGenerateAccessToken } from './api';
import { useFeedback } from '../../../components/feedback';

interface PasswordValues {
  password: string;
  password2: string;
}

/**
 * The new-password form. `required`: the account may do nothing else until it has chosen one (root's
 * first start), so the dialog cannot be closed.
 */
export function ChangePasswordModal({
  open,
  onClose,
  required = false,
}: {
  open: boolean;
  onClose(): void;
  required?: boolean;
}) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const [form] = Form.useForm<PasswordValues>();
  const change = useChangePassword();
  const submit = ({ password }: PasswordValues) =>
    change.mutate(password, {
      onSuccess: () => {
        void message.success(t('personal.passwordChanged'));
        onClose();
      },
    });
  return (
    <Modal
      open={open}
      title={t(required ? 'personal.choosePasswordTitle' : 'personal.changePassword')}
      onCancel={required ? undefined : onClose}
      onOk={() => form.submit()}
      confirmLoading={change.isPending}
      destroyOnHidden
      closable={!required}
      mask={{ closable: !required }}
      keyboard={!required}
      cancelButtonProps={required ? { style: { display: 'none' } } : undefined}
    >
      {required && (
        <Alert type="warning" showIcon title={t('msg.passwordChangeRequired')} style={{ marginBottom: 16 }} />
      )}
      <Form form={form} layout="vertical" onFinish={submit} requiredMark={false}>
        <Form.Item name="password" label={t('auth.newPassword')} rules={[zodRule(passwordSchema)]}>
          <Input.Password prefix={<LockOutlined />} autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          name="password2"
          label={t('auth.confirmPassword')}
          dependencies={['password']}
          rules={[
            ({ getFieldValue }) => ({
              validator: async (_rule, value: unknown) => {
                if ((value ?? '') !== (getFieldValue('password') ?? ''))
                  throw new Error(t('msg.passwordsDiffer'));
              },
            }),
          ]}
        >
          <Input.Password prefix={<LockOutlined />} autoComplete="new-password" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

function DeleteAccountModal({
  username,
  open,
  onClose,
}: {
  username: string;
  open: boolean;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const navigate = useNavigate();
  const remove = useDeleteSelf();
  const [typed, setTyped] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  const submit = () => {
    if (typed !== username) {
      setProblem(t('msg.confirmDeleteAccount'));
      return;
    }
    setProblem(null);
    remove.mutate(undefined, {
      onSuccess: () => {
        void message.success(t('personal.accountDeleted'));
        clearUser();
        void navigate('/login');
      },
    });
  };

  return (
    <Modal
      open={open}
      title={t('personal.deleteAccount')}
      onCancel={onClose}
      onOk={submit}
      okText={t('personal.deleteForever')}
      okButtonProps={{ danger: true }}
      confirmLoading={remove.isPending}
      destroyOnHidden
    >
      <Alert type="error" showIcon title={t('personal.deleteWarning')} style={{ marginBottom: 16 }} />
      <Form layout="vertical" onFinish={submit}>
        <Form.Item
          label={t('personal.typeUsername', { username })}
          validateStatus={problem ? 'error' : undefined}
          help={problem ?? undefined}
        >
          <Input value={typed} onChange={(e) => setTyped(e.target.value)} autoComplete="off" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

export function AccountCard({ user }: { user: PublicUser }) {
  const { t } = useTranslation();
  const copy = useCopy();
  const [params, setParams] = useSearchParams();
  const generate = useGenerateAccessToken();
  // Arriving from the default-password warning (?change_password=1) opens the password dialog.
  const wantsPassword = params.get('change_password') === '1';
  const [dialog, setDialog] = useState<'password' | 'delete' | null>(wantsPassword ? 'password' : null);
  useEffect(() => {
    if (!wantsPassword) return;
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        next.delete('change_password');
        return next;
      },
      { replace: true },
    );
  }, [wantsPassword, setParams]);

  const onGenerate = () =>
    generate.mutate(undefined, { onSuccess: (token) => void copy(token, t('personal.tokenCopied')) });

  return (
    <Card title={t('personal.accountTitle')} style={{ height: '100%' }}>
      <Typography.Paragraph type="secondary">{t('personal.accessTokenHint')}</Typography.Paragraph>
      {generate.data && (
        <Space.Compact style={{ width: '100%', marginBottom: 16 }}>
          <Input value={generate.data} readOnly aria-label={t('personal.accessToken')} />
          <Button icon={<CopyOutlined />} onClick={() => void copy(generate.data, t('personal.tokenCopied'))}>
            {t('common.copy')}
          </Button>
        </Space.Compact>
      )}
      <Flex wrap gap={8}>
        <Button type="primary" icon={<KeyOutlined />} loading={generate.isPending} onClick={onGenerate}>
          {t('personal.generateToken')}
        </Button>
        <Button icon={<LockOutlined />} onClick={() => setDialog('password')}>
          {t('personal.changePassword')}
        </Button>
        <Button danger icon={<DeleteOutlined />} onClick={() => setDialog('delete')}>
          {t('personal.deleteAccount')}
        </Button>
      </Flex>
      <ChangePasswordModal open={dialog === 'password'} onClose={() => setDialog(null)} />
      {dialog === 'delete' && (
        <DeleteAccountModal username={user.username} open onClose={() => setDialog(null)} />
      )}
    </Card>
  );
}
