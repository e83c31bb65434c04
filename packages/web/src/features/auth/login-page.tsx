// /login: username and password, third-party choices, the human check, the expired-session notice
// and the default-password warning after a root sign-in with the first-start password.
// A plain <form> rather than antd's Form: two fields need no form engine, and antd's Form would add
// ~28 kB gzip to the page every visitor loads first (see docs in the report / route-size script).
import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { Alert, Button, theme } from 'antd';
// Deep imports: antd's Input index also brings TextArea, Search and OTP (~9 kB gzip) to /login.
import Input from 'antd/es/input/Input';
import Password from 'antd/es/input/Password';
import { useEffect, useId, useState } from 'react';
import type { FormEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { useFeedback } from '../../components/feedback';
import { useTurnstile } from '../../components/turnstile';
import { translateServerMessage } from '../../lib/api';
import { useStatus } from '../../lib/status';
import { STORAGE_KEYS, writeString } from '../../lib/storage';
import { useLoginMutation, useSignIn } from './api';
import { AuthCard, AuthFooter } from './components/auth-card';
import { ThirdPartyLogin } from './components/third-party-login';
import { isRegistrationOpen } from './registration';
import { loginProblem } from './validation';

/** Where a password sign-in lands: the page the guard sent the user away from, else /token. */
export function landingPath(state: unknown): string {
  const from = typeof state === 'object' && state !== null ? (state as { from?: unknown }).from : undefined;
  return typeof from === 'string' && from.startsWith('/') && !from.startsWith('/login') ? from : '/token';
}

function Field({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  const { token } = theme.useToken();
  return (
    <div style={{ marginBottom: 16 }}>
      <label htmlFor={id} style={{ display: 'block', marginBottom: 6, color: token.colorText }}>
        {label}
      </label>
      {children}
    </div>
  );
}

export function LoginPage() {
  const { t } = useTranslation();
  const status = useStatus();
  const [params] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const { message, modal } = useFeedback();
  const signIn = useSignIn();
  const login = useLoginMutation();
  const turnstile = useTurnstile();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const id = useId();

  const aff = params.get('aff');
  useEffect(() => {
    if (aff) writeString(STORAGE_KEYS.aff, aff);
  }, [aff]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const issue = loginProblem(username, password);
    setProblem(issue && translateServerMessage(issue));
    if (issue || !turnstile.ready()) return;
    login.mutate(
      { username: username.trim(), password, turnstile: turnstile.token },
      {
        onSuccess: (user) => {
          signIn(user);
          void message.success(t('auth.loginSuccess'));
          void navigate(landingPath(location.state), { replace: true });
          // An account that must change its password gets the console's own dialog instead.
          if (user.default_password && !user.password_change_required) {
            modal.warning({
              title: t('auth.defaultPasswordTitle'),
              content: t('msg.defaultPasswordInUse'),
              okText: t('auth.changePasswordNow'),
              onOk: () => navigate('/setting?tab=personal&change_password=1'),
            });
          }
        },
      },
    );
  };

  return (
    <AuthCard title={t('auth.loginTitle')}>
      {params.get('expired') === 'true' && (
        <Alert type="warning" showIcon title={t('msg.loginExpired')} style={{ marginBottom: 16 }} />
      )}
      {status.password_login ? (
        <form onSubmit={submit} noValidate>
          <Field id={`${id}-username`} label={t('auth.username')}>
            <Input
              id={`${id}-username`}
              size="large"
              prefix={<UserOutlined />}
              autoComplete="username"
              placeholder={t('auth.usernamePlaceholder')}
              value={username}
              onChange={(e) => setUsername(e.target.value)}
            />
          </Field>
          <Field id={`${id}-password`} label={t('auth.password')}>
            <Password
              id={`${id}-password`}
              size="large"
              prefix={<LockOutlined />}
              autoComplete="current-password"
              placeholder={t('auth.passwordPlaceholder')}
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          </Field>
          {problem && (
            <Alert type="error" showIcon title={problem} style={{ marginBottom: 16 }} role="alert" />
          )}
          {turnstile.widget && <div style={{ marginBottom: 16 }}>{turnstile.widget}</div>}
          <Button
            type="primary"
            htmlType="submit"
            size="large"
            block
            loading={login.isPending}
            style={{ marginBottom: 16 }}
          >
            {t('auth.login')}
          </Button>
        </form>
      ) : (
        <Alert type="info" showIcon title={t('msg.passwordLoginDisabled')} style={{ marginBottom: 16 }} />
      )}
      <AuthFooter>
        {isRegistrationOpen(status) && (
          <span>
            {t('auth.noAccount')} <Link to="/register">{t('auth.register')}</Link>
          </span>
        )}
        <Link to="/reset" style={{ marginInlineStart: 'auto' }}>
          {t('auth.forgotPassword')}
        </Link>
      </AuthFooter>
      <ThirdPartyLogin />
    </AuthCard>
  );
}
