// Card actions that are not option values: purging old logs (logs card) and resetting the model
// ratios to the built-in tables (ratios card).
import { DeleteOutlined, UndoOutlined } from '@ant-design/icons';
import { Button, DatePicker, Divider, Flex, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFeedback } from '../../../components/feedback';
import { dayjs } from '../../../lib/dates';
import { purgeLogs, resetModelRatios, useReloadOptions } from './api';

/** The default purge time (spec part 1 §9): one month ago. */
export const defaultPurgeTime = (): Dayjs => dayjs().subtract(1, 'month');

export function LogPurge() {
  const { t } = useTranslation();
  const { message, modal } = useFeedback();
  const [time, setTime] = useState<Dayjs | null>(defaultPurgeTime);
  const [busy, setBusy] = useState(false);

  const purge = () => {
    if (!time) {
      void message.warning(t('msg.selectLogTime'));
      return;
    }
    modal.confirm({
      title: t('siteSettings.purgeConfirmTitle'),
      content: t('siteSettings.purgeConfirm', { time: time.format('YYYY-MM-DD HH:mm:ss') }),
      okText: t('siteSettings.purgeLogs'),
      okButtonProps: { danger: true },
      onOk: async () => {
        setBusy(true);
        try {
          const count = await purgeLogs(time.unix());
          void message.success(t('siteSettings.logsCleaned', { count }));
        } finally {
          setBusy(false);
        }
      },
    });
  };

  return (
    <>
      <Divider />
      <Flex gap={8} wrap align="center">
        <Typography.Text id="purge-logs-before">{t('siteSettings.purgeLogsBefore')}</Typography.Text>
        <DatePicker
          showTime
          value={time}
          onChange={setTime}
          aria-labelledby="purge-logs-before"
          style={{ minWidth: 200 }}
        />
        <Button danger icon={<DeleteOutlined />} loading={busy} onClick={purge}>
          {t('siteSettings.purgeLogs')}
        </Button>
      </Flex>
    </>
  );
}

export function ResetRatios() {
  const { t } = useTranslation();
  const { message, modal } = useFeedback();
  const reload = useReloadOptions();

  const reset = () =>
    modal.confirm({
      title: t('siteSettings.resetRatiosConfirmTitle'),
      content: t('siteSettings.resetRatiosConfirm'),
      okText: t('siteSettings.resetRatios'),
      okButtonProps: { danger: true },
      onOk: async () => {
        await resetModelRatios();
        await reload();
        void message.success(t('msg.modelRatiosReset'));
      },
    });

  return (
    <>
      <Divider />
      <Button danger icon={<UndoOutlined />} onClick={reset}>
        {t('siteSettings.resetRatios')}
      </Button>
    </>
  );
}
