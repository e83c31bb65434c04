// Cells the async task and drawing tables share: times, duration, status, progress and image
// thumbnails. Drawing rows keep their times in milliseconds and async tasks in seconds, so time
// cells take the unit.
import { Image, Progress, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatTimestamp } from '../../lib/dates';
import { taskDurationColour } from '../logs/colours';
import { elapsedSeconds, progressPercent, progressStatus, taskStatus, timeInSeconds } from './labels';
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
  const known = taskStatus(typeof status === 'string' ? status : '');
  if (!known) return <Tag>{String(status)}</Tag>;
  return <Tag color={known.colour}>{t(`tasks.status.${known.name}`)}</Tag>;
}

/**
 * The task's progress as a bar. A failed task's bar is red (antd's exception state) whatever its
 * progress says: "100%" on a failure would otherwise read as a green, finished bar. Only a success
 * turns green at 100%; an unfinished task's bar stays blue (animated) until the task ends.
 */
export function ProgressCell({ progress, status }: { progress: string; status: string }) {
  const { t } = useTranslation();
  const text = typeof progress === 'string' ? progress : '';
  const percent = progressPercent(text);
  const failed = status === 'FAILURE';
  if (percent === null && !failed) {
    return <Typography.Text type="secondary">{text === '' ? '-' : text}</Typography.Text>;
  }
  return (
    <Progress
      percent={percent ?? 0}
      status={progressStatus(status)}
      size="small"
      aria-label={t('tasks.column.progress')}
      style={{ width: 110, margin: 0 }}
    />
  );
}

/** A grey square shown in place of an image that did not load. */
const BROKEN_IMAGE =
  'data:image/svg+xml;utf8,' +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><rect width="64" height="64" fill="#f0f0f0"/>' +
      '<path d="M18 44l10-13 8 9 6-7 8 11z" fill="#bfbfbf"/><circle cx="24" cy="22" r="4" fill="#bfbfbf"/></svg>',
  );

/**
 * A small image that opens antd's image viewer when clicked (with `previewSrc`, a larger one). It
 * loads only when scrolled into view: a full page of drawings would otherwise fetch every image.
 */
export function Thumbnail({
  src,
  previewSrc,
  alt,
  size = 56,
  square = true,
}: {
  src: string;
  previewSrc?: string | null;
  alt: string;
  size?: number;
  /** Cropped to a square of `size` (tables); otherwise `size` wide at the image's own proportions. */
  square?: boolean;
}) {
  return (
    <Image
      src={src}
      alt={alt}
      width={size}
      height={square ? size : undefined}
      loading="lazy"
      fallback={BROKEN_IMAGE}
      preview={previewSrc && previewSrc !== src ? { src: previewSrc } : true}
      style={{ objectFit: square ? 'cover' : undefined, borderRadius: 4 }}
    />
  );
}
