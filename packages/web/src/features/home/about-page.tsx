// About: the site's About text (Markdown or a framed URL), or a note that none is set.
import { theme } from 'antd';
import { Suspense, lazy } from 'react';
import { useTranslation } from 'react-i18next';
import { PageLoading } from '../../app/page-loading';
import { useStatus } from '../../lib/status';
import { useAboutContent } from './api';

const SiteContent = lazy(() =>
  import('../../components/site-content').then((m) => ({ default: m.SiteContent })),
);

export function AboutPage() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const status = useStatus();
  const content = useAboutContent();
  if (content.isPending) return <PageLoading />;
  if (!content.data) {
    return (
      <section
        style={{
          maxWidth: 760,
          margin: '24px auto',
          padding: '32px',
          background: token.colorBgContainer,
          border: `1px solid ${token.colorBorderSecondary}`,
          borderRadius: token.borderRadiusLG,
          color: token.colorText,
        }}
      >
        <h1 style={{ fontSize: 24, marginTop: 0 }}>{t('about.title', { name: status.system_name })}</h1>
        <p style={{ color: token.colorTextSecondary }}>{t('about.empty')}</p>
        <p style={{ marginBottom: 0 }}>{t('footer.credit')}</p>
      </section>
    );
  }
  return (
    <Suspense fallback={<PageLoading />}>
      <SiteContent content={content.data} title={t('nav.about')} />
    </Suspense>
  );
}
