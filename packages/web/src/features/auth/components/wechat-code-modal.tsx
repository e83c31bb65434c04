// WeChat sign-in and binding: scan the official account's QR code, follow it, send the keyword and
// type the code it answers with (valid three minutes).
import { Form, Input, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStatus } from '../../../lib/status';

export function WeChatCodeModal({
  open,
  title,
  onClose,
  onSubmit,
}: {
  open: boolean;
  title: string;
  onClose(): void;
  /** Resolves when the code was accepted; a rejection keeps the dialog open. */
  onSubmit(code: string): Promise<void>;
}) {
  const { t } = useTranslation();
  const status = useStatus();
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    const trimmed = code.trim();
    if (!trimmed) return;
    setBusy(true);
    try {
      await onSubmit(trimmed);
      setCode('');
    } catch {
      // lib/api.ts already showed why.
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={open}
      title={title}
      onCancel={onClose}
      onOk={() => void submit()}
      okText={t('common.confirm')}
      okButtonProps={{ loading: busy, disabled: code.trim() === '' }}
      destroyOnHidden
    >
      <div style={{ textAlign: 'center' }}>
        {status.wechat_qrcode && (
          <img src={status.wechat_qrcode} alt={t('wechat.qrAlt')} width={200} height={200} />
        )}
        <Typography.Paragraph style={{ marginTop: 12 }}>{t('wechat.instructions')}</Typography.Paragraph>
      </div>
      <Form onFinish={() => void submit()}>
        <Form.Item label={t('wechat.code')}>
          <Input
            value={code}
            onChange={(e) => setCode(e.target.value)}
            placeholder={t('wechat.codePlaceholder')}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
