// The columns of the drawing table (spec part 2 §3/§4): the channel only for admins; times in
// milliseconds; images as thumbnails that open antd's image viewer; long prompts open in a dialog.
import { Image, Tag, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import type { MidjourneyItem } from '@sluice/shared';
import type { TFunction } from 'i18next';
import { LongText } from '../logs/components/long-text';
import { DurationCell, ProgressCell, StatusTag, TimeCell } from '../tasks/task-cells';
import { DRAWING_LIST } from './api';
import { mjAction, submitCode } from './labels';

const unit = DRAWING_LIST.timeUnit;

export function drawingColumns({
  t,
  admin,
}: {
  t: TFunction;
  admin: boolean;
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
      render: (_, task) => {
        const known = mjAction(task.action);
        return <Tag color="geekblue">{known ? t(`drawing.action.${known}`) : task.action || '-'}</Tag>;
      },
    },
    {
      title: t('drawing.column.mjId'),
      key: 'mj_id',
      render: (_, task) => (
        <Typography.Text copyable={task.mj_id !== ''}>{task.mj_id || '-'}</Typography.Text>
      ),
    },
    {
      title: t('drawing.column.code'),
      key: 'code',
      render: (_, task) => {
        const code = submitCode(task.code);
        return <Tag color={code.colour}>{t(`drawing.code.${code.name}`, { code: task.code })}</Tag>;
      },
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
      render: (_, task) =>
        task.image_url ? (
          <Image
            src={task.image_url}
            alt={t('drawing.imageAlt', { id: task.mj_id })}
            width={56}
            height={56}
            style={{ objectFit: 'cover', borderRadius: 4 }}
          />
        ) : (
          <Typography.Text type="secondary">{t('drawing.noImage')}</Typography.Text>
        ),
    },
    {
      title: t('drawing.column.prompt'),
      key: 'prompt',
      render: (_, task) => <LongText text={task.prompt} title={t('drawing.column.prompt')} />,
    },
    {
      title: t('drawing.column.promptEn'),
      key: 'prompt_en',
      render: (_, task) => <LongText text={task.prompt_en} title={t('drawing.column.promptEn')} />,
    },
    {
      title: t('drawing.column.failReason'),
      key: 'fail_reason',
      render: (_, task) => <LongText text={task.fail_reason} title={t('drawing.column.failReason')} />,
    },
  );
  return columns;
}
