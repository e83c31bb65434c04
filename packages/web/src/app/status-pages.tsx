// The 404 page. antd's Result carries large illustrations, so this module is only loaded
// when it is shown.
import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

function BackHome() {
  const { t } = useTranslation();
  return (
    <Link to="/">
      <Button type="primary">{t('nav.backHome')}</Button>
    </Link>
  );
}

export function NotFoundPage() {
  const { t } = useTranslation();
  return <Result status="404" title="404" subTitle={t('msg.pageNotFound')} extra={<BackHome />} />;
}
