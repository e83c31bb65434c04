// /reset: asks the server to mail a password-reset link.
import { MailOutlined } from '@ant-design/icons';
import { Button, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { EMAIL_CODE_RESEND_SECONDS, emailAddressSchema } from '@sluice/shared';
import { useTurnstile } from '../../components/turnstile';
import { useCountdown } from '../../components/use-countdown';
import { zodRule } from '../../lib/form-rules';
import { useResetRequestMutation } from './api';
import { AuthCard, AuthFooter } from './components/auth-card';
import { useFeedback } from '../../components/feedback';

export function ResetPage() {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const reset = useResetRequestMutation();
  const turnstile = useTurnstile();
  const [left, start] = useCountdown();

  const submit = ({ email }: { email: string }) => {
    if (!turnstile.ready()) return;
    reset.mutate(
      { email: email.trim(), turnstile: turnstile.token },
      {
        onSuccess: () => {
          void message.success(t('auth.resetMailSent'));
          start(EMAIL_CODE_RESEND_SECONDS);
        },
      },
    );
  };

  return (
    <AuthCard title={t('auth.resetTitle')}>
      <p style={{ marginTop: 0 }}>{t('auth.resetHint')}</p>
      <Form layout="vertical" onFinish={submit} requiredMark={false} size="large">
        <Form.Item name="email" label={t('auth.email')} rules={[zodRule(emailAddressSchema)]}>
          <Input
            prefix={<MailOutlined />}
            type="email"
            autoComplete="email"
            placeholder={t('auth.emailPlaceholder')}
          />
        </Form.Item>
        {turnstile.widget && <Form.Item>{turnstile.widget}</Form.Item>}
        <Form.Item style={{ marginBottom: 8 }}>
          <Button type="primary" htmlType="submit" block loading={reset.isPending} disabled={left > 0}>
            {left > 0 ? t('auth.resendIn', { seconds: left }) : t('auth.sendResetMail')}
          </Button>
        </Form.Item>
      </Form>
      <AuthFooter>
        <Link to="/login">{t('auth.backToLogin')}</Link>
      </AuthFooter>
    </AuthCard>
  );
}
