// The side drawer that creates redemption codes (a batch of `count`) or edits an unused one. A
// missing name stops the form and marks the field; nothing is sent.
import { Button, Drawer, Flex, Form, Input, InputNumber } from 'antd';
import { REDEMPTION_BATCH_MAX, REDEMPTION_DEFAULT_QUOTA, redemptionCreateSchema } from '@sluice/shared';
import type { RedemptionView } from '@sluice/shared';
import { useTranslation } from 'react-i18next';
import { useDrawerSize } from '../../components/drawer-size';
import { useFeedback } from '../../components/feedback';
import { useFormatQuota } from '../../components/quota';
import { zodRule } from '../../lib/form-rules';
import { useCreateRedemptions, useUpdateRedemption } from './api';

interface RedemptionFormValues {
  name: string;
  quota: number | null;
  count: number | null;
}

const NEW_VALUES: RedemptionFormValues = { name: '', quota: REDEMPTION_DEFAULT_QUOTA, count: 1 };
const { shape } = redemptionCreateSchema;

export interface RedemptionDrawerProps {
  open: boolean;
  /** null creates new codes. */
  redemption: RedemptionView | null;
  onClose(): void;
  /** After a create, with the new codes. */
  onCreated(codes: string[]): void;
  onUpdated(updated: RedemptionView): void;
}

export function RedemptionDrawer({ open, redemption, onClose, onCreated, onUpdated }: RedemptionDrawerProps) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const size = useDrawerSize();
  const formatQuota = useFormatQuota();
  const [form] = Form.useForm<RedemptionFormValues>();
  const quota = Form.useWatch('quota', form);
  const create = useCreateRedemptions();
  const update = useUpdateRedemption();
  const editing = redemption !== null;

  const submit = (values: RedemptionFormValues) => {
    const name = values.name.trim();
    const amount = Math.trunc(values.quota ?? 0);
    if (redemption) {
      update.mutate(
        { id: redemption.id, name, quota: amount },
        {
          onSuccess: (updated) => {
            void message.success(t('redemptions.updated'));
            onUpdated(updated);
            onClose();
          },
        },
      );
    } else {
      create.mutate(
        { name, quota: amount, count: Math.trunc(values.count ?? 1) },
        {
          onSuccess: (codes) => {
            onCreated(codes);
            onClose();
          },
        },
      );
    }
  };

  return (
    <Drawer
      open={open}
      onClose={onClose}
      title={editing ? t('redemptions.form.editTitle') : t('redemptions.form.createTitle')}
      size={size}
      placement="left"
      destroyOnHidden
      footer={
        <Flex justify="end" gap={8}>
          <Button onClick={onClose}>{t('redemptions.form.cancel')}</Button>
          <Button type="primary" loading={create.isPending || update.isPending} onClick={() => form.submit()}>
            {t('redemptions.form.submit')}
          </Button>
        </Flex>
      }
    >
      <Form<RedemptionFormValues>
        form={form}
        name="redemption"
        layout="vertical"
        requiredMark={false}
        autoComplete="off"
        initialValues={redemption ? { name: redemption.name, quota: redemption.quota, count: 1 } : NEW_VALUES}
        onFinish={submit}
      >
        <Form.Item name="name" label={t('redemptions.form.name')} rules={[zodRule(shape.name)]}>
          <Input placeholder={t('redemptions.form.namePlaceholder')} />
        </Form.Item>
        <Form.Item
          name="quota"
          label={t('redemptions.form.quota')}
          rules={[zodRule(shape.quota)]}
          extra={
            typeof quota === 'number'
              ? t('redemptions.form.quotaHint', { value: formatQuota(quota) })
              : undefined
          }
        >
          <InputNumber<number> min={1} precision={0} style={{ width: '100%' }} />
        </Form.Item>
        {!editing && (
          <Form.Item name="count" label={t('redemptions.form.count')} rules={[zodRule(shape.count)]}>
            <InputNumber<number> min={1} max={REDEMPTION_BATCH_MAX} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        )}
      </Form>
    </Drawer>
  );
}
