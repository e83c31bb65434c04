// Asks for an amount to add to a user's quota (negative subtracts); the edit form applies it at once.
import { InputNumber, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormatQuota } from '../../components/quota';

export function AddQuotaModal({
  open,
  current,
  onClose,
  onAdd,
}: {
  open: boolean;
  current: number;
  onClose(): void;
  onAdd(amount: number): void;
}) {
  const { t } = useTranslation();
  const formatQuota = useFormatQuota();
  const [amount, setAmount] = useState<number | null>(null);
  const result = current + (amount ?? 0);

  const close = () => {
    setAmount(null);
    onClose();
  };

  return (
    <Modal
      open={open}
      title={t('users.form.addQuotaTitle')}
      onCancel={close}
      onOk={() => {
        if (amount) onAdd(Math.trunc(amount));
        close();
      }}
      okText={t('users.form.addQuota')}
      cancelText={t('users.form.cancel')}
      destroyOnHidden
    >
      <label htmlFor="add-quota-amount" style={{ display: 'block', marginBottom: 8 }}>
        {t('users.form.addQuotaAmount')}
      </label>
      <InputNumber<number>
        id="add-quota-amount"
        value={amount}
        onChange={setAmount}
        precision={0}
        style={{ width: '100%' }}
        autoFocus
      />
      <Typography.Paragraph
        type={result < 0 ? 'danger' : 'secondary'}
        style={{ marginTop: 8, marginBottom: 0 }}
      >
        {t('users.form.addQuotaResult', { quota: result, value: formatQuota(result) })}
      </Typography.Paragraph>
    </Modal>
  );
}
