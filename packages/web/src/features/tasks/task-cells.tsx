// Cells the async task and drawing tables share: duration, status and progress.
import { Progress, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { taskDuration, taskDurationColour } from '../logs/colours';
import { progressPercent, taskStatus } from './labels';

/** Finish − submit in seconds; over a minute is red. A task still running shows a dash. */
export function DurationCell({ submitTime, finishTime }: { submitTime: number; finishTime: number }) {
  const { t } = useTranslation();
  const seconds = taskDuration(submitTime, finishTime);
  if (seconds === null) return <Typography.Text type="secondary">-</Typography.Text>;
  return <Tag color={taskDurationColour(seconds)}>{t('logs.seconds', { value: seconds })}</Tag>;
}

export function StatusTag({ status }: { status: string }) {
  const { t } = useTranslation();
  const known = taskStatus(status);
  if (!known) return <Tag>{status}</Tag>;
  return <Tag color={known.colour}>{t(`tasks.status.${known.name}`)}</Tag>;
}

export function ProgressCell({ progress }: { progress: string }) {
  const percent = progressPercent(progress);
  if (percent === null) {
    return <Typography.Text type="secondary">{progress === '' ? '-' : progress}</Typography.Text>;
  }
  return <Progress percent={percent} size="small" style={{ width: 110, margin: 0 }} />;
}
