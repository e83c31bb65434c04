// Home: the site's announcement when there is one, then its HomePageContent (Markdown or a framed
// URL), or a welcome panel when none is set.
import { ApiOutlined, CopyOutlined, KeyOutlined, LoginOutlined } from '@ant-design/icons';
import { Button, theme } from 'antd';
import { Suspense, lazy, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PageLoading } from '../../app/page-loading';
import { useCopy } from '../../components/copy';
import { useUser } from '../../lib/session';
import { DEFAULT_LOGO, useStatus } from '../../lib/status';
import { useHomePageContent, useNotice } from './api';
import { dismissNotice, readDismissedNotice, shouldShowNotice } from './notice-dismissal';

// Markdown and the sanitiser load only for sites that set home page content.
const SiteContent = lazy(() =>
  import('../../components/site-content').then((m) => ({ default: m.SiteContent })),
);
const SiteNotice = lazy(() => import('./site-notice').then((m) => ({ default: m.SiteNotice })));

/** The announcement for visitors and users alike, until they close that text. */
function HomeNotice() {
  const notice = useNotice().data ?? '';
  const [dismissed, setDismissed] = useState(readDismissedNotice);
  if (!shouldShowNotice(notice, dismissed)) return null;
  return (
    <Suspense fallback={null}>
      <SiteNotice
        notice={notice}
        onDismiss={() => {
          dismissNotice(notice);
          setDismissed(notice);
        }}
      />
    </Suspense>
  );
}

function Welcome() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const status = useStatus();
  const user = useUser();
  const navigate = useNavigate();
  const copy = useCopy();
  const address = `${status.server_address || window.location.origin}/v1`;
  return (
    <section
      style={{
        maxWidth: 760,
        margin: '24px auto',
        padding: '40px 32px',
        textAlign: 'center',
        background: token.colorBgContainer,
        border: `1px solid ${token.colorBorderSecondary}`,
        borderRadius: token.borderRadiusLG,
        color: token.colorText,
      }}
    >
      <img src={status.logo || DEFAULT_LOGO} alt="" width={64} height={64} style={{ borderRadius: 14 }} />
      <h1 style={{ fontSize: 30, margin: '16px 0 8px' }}>
        {t('home.welcome', { name: status.system_name })}
      </h1>
      <p style={{ color: token.colorTextSecondary, fontSize: 16, maxWidth: 560, margin: '0 auto 24px' }}>
        {t('home.intro')}
      </p>
      <div
        style={{
          display: 'inline-flex',
          alignItems: 'center',
          gap: 8,
          flexWrap: 'wrap',
          justifyContent: 'center',
          padding: '8px 12px',
          marginBottom: 24,
          background: token.colorFillQuaternary,
          borderRadius: token.borderRadius,
          maxWidth: '100%',
        }}
      >
        <ApiOutlined />
        <span>{t('home.endpoint')}</span>
        <code style={{ fontFamily: token.fontFamilyCode, wordBreak: 'break-all' }}>{address}</code>
        <Button
          size="small"
          type="text"
          icon={<CopyOutlined />}
          aria-label={t('common.copy')}
          onClick={() => void copy(address)}
        />
      </div>
      <div style={{ display: 'flex', gap: 8, justifyContent: 'center', flexWrap: 'wrap' }}>
        {user ? (
          <Button type="primary" size="large" icon={<KeyOutlined />} onClick={() => void navigate('/token')}>
            {t('home.manageTokens')}
          </Button>
        ) : (
          <Button
            type="primary"
            size="large"
            icon={<LoginOutlined />}
            onClick={() => void navigate('/login')}
          >
            {t('nav.login')}
          </Button>
        )}
        <Button size="large" onClick={() => void navigate('/about')}>
          {t('nav.about')}
        </Button>
      </div>
    </section>
  );
}

function HomeContent() {
  const { t } = useTranslation();
  const content = useHomePageContent();
  if (content.isPending) return <PageLoading />;
  if (!content.data) return <Welcome />;
  return (
    <Suspense fallback={<PageLoading />}>
      <SiteContent content={content.data} title={t('nav.home')} />
    </Suspense>
  );
}

export function HomePage() {
  return (
    <>
      <HomeNotice />
      <HomeContent />
    </>
  );
}
