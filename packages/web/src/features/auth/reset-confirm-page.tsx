// /user/reset?email=&token=: the page the reset mail links to. The server sets a new password and
// answers with it; the user copies it and changes it after signing in.
import { CopyOutlined } from '@ant-design/icons';
import { Alert, Button, Form, Input, Result, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useCopy } from '../../components/copy';
import { useResetConfirmMutation } from './api';
import { AuthCard } from './components/auth-card';

export function ResetConfirmPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const copy = useCopy();
  const confirm = useResetConfirmMutation();
  const email = params.get('email') ?? '';
  const token = params.get('token') ?? '';

  if (!email || !token) {
    return (
      <Result
        status="warning"
        title={t('msg.resetLinkInvalid')}
        extra={<Link to="/reset">{t('auth.resetTitle')}</Link>}
      />
    );
  }

  const newPassword = confirm.data;
  return (
    <AuthCard title={t('auth.resetConfirmTitle')}>
      <Form layout="vertical" size="large">
        <Form.Item label={t('auth.email')}>
          <Input value={email} readOnly />
        </Form.Item>
        {newPassword ? (
          <>
            <Alert
              type="success"
              showIcon
              title={t('auth.newPasswordReady')}
              description={t('auth.changeAfterLogin')}
              style={{ marginBottom: 16 }}
            />
            <Form.Item label={t('auth.newPassword')}>
              <Space.Compact style={{ width: '100%' }}>
                <Input value={newPassword} readOnly aria-label={t('auth.newPassword')} />
                <Button
                  icon={<CopyOutlined />}
                  onClick={() => void copy(newPassword, t('auth.newPasswordCopied'))}
                >
                  {t('common.copy')}
                </Button>
              </Space.Compact>
            </Form.Item>
            <Link to="/login">
              <Button type="primary" block>
                {t('auth.backToLogin')}
              </Button>
            </Link>
          </>
        ) : (
          <Button
            type="primary"
            block
            loading={confirm.isPending}
            onClick={() =>
              confirm.mutate(
                { email, token },
                { onSuccess: (password) => void copy(password, t('auth.newPasswordCopied')) },
              )
            }
          >
            {t('auth.confirmReset')}
          </Button>
        )}
      </Form>
    </AuthCard>
  );
}
