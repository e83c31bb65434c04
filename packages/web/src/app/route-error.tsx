// Shown when a page throws while rendering or its chunk fails to load (e.g. after a deploy).
import { Button, Flex, theme } from 'antd';
import { useTranslation } from 'react-i18next';

export function RouteError() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  return (
    <Flex vertical align="center" gap={16} style={{ padding: 64, color: token.colorText }} role="alert">
      <div style={{ fontSize: 20 }}>{t('common.pageFailed')}</div>
      <Button type="primary" onClick={() => window.location.reload()}>
        {t('common.reload')}
      </Button>
    </Flex>
  );
}
