// The site's announcement above the home page, rendered from its Markdown (sanitised). Loaded only
// when there is one to show, so the Markdown renderer stays off most visits.
import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { renderMarkdown } from '../../lib/markdown';

export function SiteNotice({ notice, onDismiss }: { notice: string; onDismiss: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert
      type="info"
      showIcon
      role="region"
      aria-label={t('home.notice.title')}
      title={t('home.notice.title')}
      description={
        <div className="markdown-content" dangerouslySetInnerHTML={{ __html: renderMarkdown(notice) }} />
      }
      closable={{ 'aria-label': t('home.notice.dismiss'), onClose: onDismiss }}
      style={{ maxWidth: 960, margin: '0 auto 16px' }}
    />
  );
}
