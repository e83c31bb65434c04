// The columns of the drawing table (spec part 2 §3/§4): the channel only for admins; times in
// milliseconds; images as thumbnails that open antd's image viewer; long prompts open in a dialog;
// the task id opens everything recorded about the drawing.
import { Tag, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import type { MidjourneyItem } from '@sluice/shared';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { LongText } from '../logs/components/long-text';
import { DurationCell, ProgressCell, StatusTag, Thumbnail, TimeCell } from '../tasks/task-cells';
import { mediaUrl } from '../tasks/task-data';
import { DRAWING_LIST } from './api';
import { mjAction, submitCode } from './labels';

const unit = DRAWING_LIST.timeUnit;

export function mjActionLabel(action: string, t: TFunction): string {
  const known = mjAction(action);
  return known ? t(`drawing.action.${known}`) : action || '-';
}

export function submitCodeTag(code: number, t: TFunction): ReactNode {
  const known = submitCode(code);
  return <Tag color={known.colour}>{t(`drawing.code.${known.name}`, { code })}</Tag>;
}

/** The stored image as a thumbnail, or a note that there is none (or none the console may load). */
function ImageCell({ drawing, t }: { drawing: MidjourneyItem; t: TFunction }) {
  const src = mediaUrl(drawing.image_url);
  if (!src) return <Typography.Text type="secondary">{t('drawing.noImage')}</Typography.Text>;
  return <Thumbnail src={src} alt={t('drawing.imageAlt', { id: drawing.mj_id })} />;
}

export function drawingColumns({
  t,
  admin,
  onDetails,
}: {
  t: TFunction;
  admin: boolean;
  onDetails(drawing: MidjourneyItem): void;
}): TableColumnsType<MidjourneyItem> {
  const columns: TableColumnsType<MidjourneyItem> = [
    {
      title: t('drawing.column.submitTime'),
      key: 'submit',
      render: (_, task) => <TimeCell time={task.submit_time} unit={unit} />,
    },
    {
      title: t('drawing.column.duration'),
      key: 'duration',
      render: (_, task) => (
        <DurationCell submitTime={task.submit_time} finishTime={task.finish_time} unit={unit} />
      ),
    },
  ];
  if (admin) {
    columns.push({
      title: t('drawing.column.channel'),
      key: 'channel',
      render: (_, task) => <Tag color="blue">{task.channel_id ?? '-'}</Tag>,
    });
  }
  columns.push(
    {
      title: t('drawing.column.action'),
      key: 'action',
      render: (_, task) => <Tag color="geekblue">{mjActionLabel(task.action, t)}</Tag>,
    },
    {
      title: t('drawing.column.mjId'),
      key: 'mj_id',
      render: (_, task) => (
        <Typography.Link onClick={() => onDetails(task)} title={t('drawing.details')}>
          {task.mj_id || '-'}
        </Typography.Link>
      ),
    },
    {
      title: t('drawing.column.code'),
      key: 'code',
      render: (_, task) => submitCodeTag(task.code, t),
    },
    {
      title: t('drawing.column.status'),
      key: 'status',
      render: (_, task) => <StatusTag status={task.status} />,
    },
    {
      title: t('drawing.column.progress'),
      key: 'progress',
      render: (_, task) => <ProgressCell progress={task.progress} status={task.status} />,
    },
    {
      title: t('drawing.column.image'),
      key: 'image',
      render: (_, task) => <ImageCell drawing={task} t={t} />,
    },
    {
      title: t('drawing.column.prompt'),
      key: 'prompt',
      render: (_, task) => <LongText text={task.prompt ?? ''} title={t('drawing.column.prompt')} />,
    },
    {
      title: t('drawing.column.promptEn'),
      key: 'prompt_en',
      render: (_, task) => <LongText text={task.prompt_en ?? ''} title={t('drawing.column.promptEn')} />,
    },
    {
      title: t('drawing.column.failReason'),
      key: 'fail_reason',
      render: (_, task) => <LongText text={task.fail_reason ?? ''} title={t('drawing.column.failReason')} />,
    },
  );
  return columns;
}
