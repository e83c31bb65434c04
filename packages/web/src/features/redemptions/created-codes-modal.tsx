// Shows the codes a create just made, one per line, with a button that copies them all.
import { CopyOutlined } from '@ant-design/icons';
import { Button, Flex, Modal, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCopy } from '../../components/copy';

export function CreatedCodesModal({
  open,
  codes,
  onClose,
}: {
  open: boolean;
  codes: string[];
  onClose(): void;
}) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const copy = useCopy();
  const text = codes.join('\n');
  return (
    <Modal
      open={open}
      title={t('redemptions.createdTitle', { count: codes.length })}
      onCancel={onClose}
      destroyOnHidden
      footer={
        <Flex justify="end" gap={8}>
          <Button onClick={onClose}>{t('common.close')}</Button>
          <Button type="primary" icon={<CopyOutlined />} onClick={() => void copy(text)}>
            {t('redemptions.copyAll')}
          </Button>
        </Flex>
      }
    >
      <Typography.Paragraph type="secondary">{t('redemptions.createdHint')}</Typography.Paragraph>
      <ul
        aria-label={t('redemptions.codesLabel')}
        style={{
          listStyle: 'none',
          margin: 0,
          padding: 8,
          maxHeight: 280,
          overflowY: 'auto',
          fontFamily: token.fontFamilyCode,
          background: token.colorFillTertiary,
          borderRadius: token.borderRadius,
          wordBreak: 'break-all',
        }}
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
    </Modal>
  );
}
