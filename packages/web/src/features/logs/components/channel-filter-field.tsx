// The admins' channel-id filter of the log, drawing and task lists (the query name differs by list).
import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';

export function ChannelFilterField({ name }: { name: string }) {
  const { t } = useTranslation();
  return (
    <Form.Item name={name}>
      <Input
        allowClear
        inputMode="numeric"
        aria-label={t('logs.filter.channel')}
        placeholder={t('logs.filter.channel')}
        style={{ width: 120 }}
      />
    </Form.Item>
  );
}
