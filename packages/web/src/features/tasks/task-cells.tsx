// Cells the async task and drawing tables share: times, duration, status and progress. Drawing
// rows keep their times in milliseconds and async tasks in seconds, so time cells take the unit.
import { Progress, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatTimestamp } from '../../lib/dates';
import { taskDurationColour } from '../logs/colours';
import { elapsedSeconds, progressPercent, taskStatus, timeInSeconds } from './labels';
import type { TimeUnit } from './labels';

/** A stored time as local date and time; 0 (not yet) shows a dash. */
export function TimeCell({ time, unit }: { time: number; unit: TimeUnit }) {
  return <span style={{ whiteSpace: 'nowrap' }}>{formatTimestamp(timeInSeconds(time, unit))}</span>;
}

/** Finish − submit in seconds; over a minute is red. A task still running shows a dash. */
export function DurationCell({
  submitTime,
  finishTime,
  unit,
}: {
  submitTime: number;
  finishTime: number;
  unit: TimeUnit;
}) {
  const { t } = useTranslation();
  const seconds = elapsedSeconds(submitTime, finishTime, unit);
  if (seconds === null) return <Typography.Text type="secondary">-</Typography.Text>;
  return <Tag color={taskDurationColour(seconds)}>{t('logs.seconds', { value: seconds })}</Tag>;
}

export function StatusTag({ status }: { status: string }) {
  const { t } = useTranslation();
  const known = taskStatus(status);
  if (!known) return <Tag>{status}</Tag>;
  return <Tag color={known.colour}>{t(`tasks.status.${known.name}`)}</Tag>;
}

/**
 * The task's progress as a bar. A failed task's bar is red (antd's exception state) whatever its
 * progress says: "100%" on a failure would otherwise read as a green, finished bar.
 */
export function ProgressCell({ progress, status }: { progress: string; status: string }) {
  const { t } = useTranslation();
  const percent = progressPercent(progress);
  const failed = status === 'FAILURE';
  if (percent === null && !failed) {
    return <Typography.Text type="secondary">{progress === '' ? '-' : progress}</Typography.Text>;
  }
  return (
    <Progress
      percent={percent ?? 0}
      status={failed ? 'exception' : undefined}
      size="small"
      aria-label={t('tasks.column.progress')}
      style={{ width: 110, margin: 0 }}
    />
  );
}
