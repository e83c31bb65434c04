// The top bar: site name and logo, home and about, the New Year easter egg on its days, language,
// theme, and sign-in (register only while registration is open) or the user menu.
import { HomeOutlined, InfoCircleOutlined, MenuOutlined, MoonOutlined, SunOutlined } from '@ant-design/icons';
import { Button, Layout, theme } from 'antd';
import { Suspense, lazy } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { LANGUAGES, changeLanguage } from '../../i18n';
import { isRegistrationOpen } from '../../features/auth/registration';
import { useUser } from '../../lib/session';
import { DEFAULT_LOGO, useStatus } from '../../lib/status';
import { useThemeMode } from '../theme';
import { newYearOf } from './new-year';

const UserMenu = lazy(() => import('./user-menu').then((m) => ({ default: m.UserMenu })));
// Loaded on New Year days only.
const NewYearButton = lazy(() => import('./new-year-button').then((m) => ({ default: m.NewYearButton })));

export function TopBar({ isMobile, onOpenMenu }: { isMobile: boolean; onOpenMenu?: () => void }) {
  const { t, i18n } = useTranslation();
  const { token } = theme.useToken();
  const { mode, toggle } = useThemeMode();
  const user = useUser();
  const status = useStatus();
  const navigate = useNavigate();
  // Two languages: the button offers the other one.
  const next = LANGUAGES.find((l) => l.code !== i18n.language) ?? LANGUAGES[0];
  const newYear = newYearOf(new Date());

  const navLink = (to: string, icon: ReactNode, label: string) => (
    <Button
      type="text"
      icon={icon}
      onClick={() => void navigate(to)}
      aria-label={isMobile ? label : undefined}
      title={label}
    >
      {isMobile ? null : label}
    </Button>
  );

  return (
    <Layout.Header
      style={{
        display: 'flex',
        alignItems: 'center',
        gap: isMobile ? 2 : 12,
        padding: isMobile ? '0 8px' : '0 20px',
        height: 56,
        lineHeight: '56px',
        background: token.colorBgContainer,
        borderBottom: `1px solid ${token.colorBorderSecondary}`,
        position: 'sticky',
        top: 0,
        zIndex: 100,
      }}
    >
      {onOpenMenu && (
        <Button type="text" icon={<MenuOutlined />} onClick={onOpenMenu} aria-label={t('nav.openMenu')} />
      )}
      <Link
        to="/"
        style={{ display: 'flex', alignItems: 'center', gap: 8, minWidth: 0, color: token.colorText }}
      >
        <img src={status.logo || DEFAULT_LOGO} alt="" width={28} height={28} style={{ borderRadius: 6 }} />
        {!(isMobile && user) && (
          <span
            style={{
              fontSize: 16,
              fontWeight: 600,
              whiteSpace: 'nowrap',
              overflow: 'hidden',
              textOverflow: 'ellipsis',
              maxWidth: isMobile ? 96 : 220,
            }}
          >
            {status.system_name}
          </span>
        )}
      </Link>
      <nav style={{ display: 'flex', gap: 2 }}>
        {navLink('/', <HomeOutlined />, t('nav.home'))}
        {navLink('/about', <InfoCircleOutlined />, t('nav.about'))}
      </nav>
      <div style={{ flex: 1 }} />
      <div style={{ display: 'flex', alignItems: 'center', gap: isMobile ? 0 : 4 }}>
        {newYear && (
          <Suspense fallback={null}>
            <NewYearButton newYear={newYear} />
          </Suspense>
        )}
        <Button
          type="text"
          onClick={() => void changeLanguage(next.code)}
          aria-label={t('nav.language')}
          title={t('nav.language')}
          lang={next.code}
        >
          {next.label}
        </Button>
        <Button
          type="text"
          icon={mode === 'dark' ? <SunOutlined /> : <MoonOutlined />}
          onClick={toggle}
          aria-label={t('nav.toggleTheme')}
          aria-pressed={mode === 'dark'}
          title={mode === 'dark' ? t('nav.lightMode') : t('nav.darkMode')}
        />
        {user ? (
          <Suspense fallback={null}>
            <UserMenu user={user} compact={isMobile} />
          </Suspense>
        ) : (
          <>
            <Button
              type="primary"
              size={isMobile ? 'small' : 'middle'}
              onClick={() => void navigate('/login')}
            >
              {t('nav.login')}
            </Button>
            {!isMobile && isRegistrationOpen(status) && (
              <Button style={{ marginInlineStart: 8 }} onClick={() => void navigate('/register')}>
                {t('nav.register')}
              </Button>
            )}
          </>
        )}
      </div>
    </Layout.Header>
  );
}
