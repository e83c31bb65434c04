// /register: username, password twice, and email plus code when the site verifies email.
import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { Alert, Button, Form, Input } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, passwordSchema, usernameSchema } from '@sluice/shared';
import { useTurnstile } from '../../components/turnstile';
import { zodRule } from '../../lib/form-rules';
import { useStatus } from '../../lib/status';
import { STORAGE_KEYS, writeString } from '../../lib/storage';
import { sendVerificationCode, useRegisterMutation } from './api';
import type { RegisterInput } from './api';
import { AuthCard, AuthFooter } from './components/auth-card';
import { EmailCodeFields } from './components/email-code-field';
import { isRegistrationOpen } from './registration';
import { useFeedback } from '../../components/feedback';

type RegisterValues = Omit<RegisterInput, 'turnstile'>;

export function RegisterPage() {
  const { t } = useTranslation();
  const status = useStatus();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { message } = useFeedback();
  const [form] = Form.useForm<RegisterValues>();
  const register = useRegisterMutation();
  const turnstile = useTurnstile();

  const aff = params.get('aff');
  useEffect(() => {
    if (aff) writeString(STORAGE_KEYS.aff, aff);
  }, [aff]);

  const submit = (values: RegisterValues) => {
    if (!turnstile.ready()) return;
    const input: RegisterInput = {
      username: values.username.trim(),
      password: values.password,
      password2: values.password2,
      turnstile: turnstile.token,
    };
    if (status.email_verification) {
      input.email = values.email?.trim();
      input.verification_code = values.verification_code?.trim();
    }
    register.mutate(input, {
      onSuccess: () => {
        void message.success(t('auth.registerSuccess'));
        void navigate('/login');
      },
    });
  };

  const closed = !isRegistrationOpen(status);

  return (
    <AuthCard title={t('auth.registerTitle')}>
      {closed && (
        <Alert
          type="info"
          showIcon
          title={t(status.register_enabled ? 'msg.passwordRegisterDisabled' : 'msg.registerDisabled')}
          style={{ marginBottom: 16 }}
        />
      )}
      <Form<RegisterValues> form={form} layout="vertical" onFinish={submit} requiredMark={false} size="large">
        <Form.Item name="username" label={t('auth.username')} rules={[zodRule(usernameSchema)]}>
          <Input
            prefix={<UserOutlined />}
            autoComplete="username"
            placeholder={t('auth.usernamePlaceholder')}
          />
        </Form.Item>
        <Form.Item name="password" label={t('auth.password')} rules={[zodRule(passwordSchema)]}>
          <Input.Password
            prefix={<LockOutlined />}
            autoComplete="new-password"
            placeholder={t('auth.newPasswordPlaceholder', {
              min: PASSWORD_MIN_LENGTH,
              max: PASSWORD_MAX_LENGTH,
            })}
          />
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
          <Input.Password
            prefix={<LockOutlined />}
            autoComplete="new-password"
            placeholder={t('auth.confirmPasswordPlaceholder')}
          />
        </Form.Item>
        {status.email_verification && (
          <EmailCodeFields
            form={form}
            send={async (email) => {
              if (!turnstile.ready()) return false;
              await sendVerificationCode(email, turnstile.token);
              void message.success(t('auth.codeSent'));
              return true;
            }}
          />
        )}
        {turnstile.widget && <Form.Item>{turnstile.widget}</Form.Item>}
        <Form.Item style={{ marginBottom: 8 }}>
          <Button type="primary" htmlType="submit" block loading={register.isPending} disabled={closed}>
            {t('auth.register')}
          </Button>
        </Form.Item>
      </Form>
      <AuthFooter>
        <span>
          {t('auth.haveAccount')} <Link to="/login">{t('auth.login')}</Link>
        </span>
      </AuthFooter>
    </AuthCard>
  );
}
