// Quota warning settings: below which balance the user is warned, and how (email or webhook). One
// warning per fall below the threshold; the server sends it after the charge that crossed it.
import { BellOutlined } from '@ant-design/icons';
import { Button, Card, Form, Input, InputNumber, Radio, Typography } from 'antd';
import { parseUserSetting, userSettingSchema } from '@sluice/shared';
import type { SelfUser, UserNotifyType, UserSetting } from '@sluice/shared';
import { useTranslation } from 'react-i18next';
import { useFeedback } from '../../../components/feedback';
import { useFormatQuota } from '../../../components/quota';
import { translateServerMessage } from '../../../lib/api';
import { useStatus } from '../../../lib/status';
import { useUpdateSetting } from './api';

type Values = UserSetting;

export function NotificationCard({ user }: { user: SelfUser }) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const status = useStatus();
  const formatQuota = useFormatQuota();
  const save = useUpdateSetting();
  const [form] = Form.useForm<Values>();
  const initial: Values = parseUserSetting(user.setting) ?? {
    notify_type: 'email',
    // One dollar's worth: a useful first value that the user adjusts.
    quota_warning_threshold: status.quota_per_unit,
    webhook_url: '',
    webhook_secret: '',
    notification_email: '',
  };
  const type = (Form.useWatch('notify_type', form) as UserNotifyType | undefined) ?? initial.notify_type;
  const threshold = Form.useWatch('quota_warning_threshold', form) as number | null | undefined;

  const submit = () => {
    // Every field, shown or not (switching the type keeps what was typed in the other), checked by
    // the whole-form schema: it also knows what one field cannot (a webhook needs its URL).
    const parsed = userSettingSchema.safeParse(form.getFieldsValue(true));
    if (!parsed.success) {
      form.setFields(
        parsed.error.issues.map((issue) => ({
          name: issue.path.map(String) as [keyof Values],
          errors: [translateServerMessage(issue.message)],
        })),
      );
      return;
    }
    save.mutate(parsed.data, { onSuccess: () => void message.success(t('personal.notifySaved')) });
  };

  return (
    <Card
      title={
        <span>
          <BellOutlined /> {t('personal.notifyTitle')}
        </span>
      }
      style={{ height: '100%' }}
    >
      <Typography.Paragraph type="secondary">{t('personal.notifyHint')}</Typography.Paragraph>
      <Form form={form} layout="vertical" initialValues={initial} onFinish={submit} requiredMark={false}>
        <Form.Item name="notify_type" label={t('personal.notifyType')}>
          <Radio.Group
            optionType="button"
            options={[
              { value: 'email', label: t('personal.notifyByEmail') },
              { value: 'webhook', label: t('personal.notifyByWebhook') },
            ]}
          />
        </Form.Item>
        <Form.Item
          name="quota_warning_threshold"
          label={t('personal.warningThreshold')}
          extra={
            typeof threshold === 'number'
              ? t('personal.warningThresholdHint', { amount: formatQuota(threshold) })
              : undefined
          }
        >
          <InputNumber min={0} style={{ width: '100%' }} aria-label={t('personal.warningThreshold')} />
        </Form.Item>
        {type === 'email' ? (
          <Form.Item
            name="notification_email"
            label={t('personal.notificationEmail')}
            extra={
              user.email
                ? t('personal.notificationEmailHint', { email: user.email })
                : t('personal.notificationEmailNeeded')
            }
          >
            <Input type="email" placeholder={user.email} autoComplete="email" />
          </Form.Item>
        ) : (
          <>
            <Form.Item
              name="webhook_url"
              label={t('personal.webhookUrl')}
              extra={t('personal.webhookUrlHint')}
            >
              <Input placeholder="https://" autoComplete="off" />
            </Form.Item>
            <Form.Item
              name="webhook_secret"
              label={t('personal.webhookSecret')}
              extra={t('personal.webhookSecretHint')}
            >
              <Input.Password autoComplete="off" />
            </Form.Item>
          </>
        )}
        <Button type="primary" htmlType="submit" loading={save.isPending}>
          {t('personal.notifySave')}
        </Button>
      </Form>
    </Card>
  );
}
