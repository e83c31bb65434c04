// Everything recorded about one drawing: its states and times, the image larger (it opens the image
// viewer), and the texts the table shortens (prompts, description, failure reason).
import { Descriptions, Modal, Tag, Typography } from 'antd';
import type { DescriptionsProps } from 'antd';
import type { MidjourneyItem } from '@sluice/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ProgressCell, StatusTag, Thumbnail, TimeCell } from '../tasks/task-cells';
import { mediaUrl } from '../tasks/task-data';
import { textBlock } from '../tasks/task-details-dialog';
import { DRAWING_LIST } from './api';
import { mjActionLabel, submitCodeTag } from './drawing-columns';

const unit = DRAWING_LIST.timeUnit;

export function DrawingDetailsDialog({
  drawing,
  onClose,
}: {
  drawing: MidjourneyItem | null;
  onClose(): void;
}) {
  const { t } = useTranslation();
  // The last drawing shown stays while the dialog closes.
  const [shown, setShown] = useState(drawing);
  if (drawing !== null && drawing !== shown) setShown(drawing);
  const image = mediaUrl(shown?.image_url);
  const items: DescriptionsProps['items'] = shown
    ? [
        { key: 'mj_id', label: t('drawing.column.mjId'), children: textBlock(shown.mj_id ?? '') },
        {
          key: 'action',
          label: t('drawing.column.action'),
          children: <Tag color="geekblue">{mjActionLabel(shown.action, t)}</Tag>,
        },
        { key: 'code', label: t('drawing.column.code'), children: submitCodeTag(shown.code, t) },
        { key: 'status', label: t('drawing.column.status'), children: <StatusTag status={shown.status} /> },
        {
          key: 'progress',
          label: t('drawing.column.progress'),
          children: <ProgressCell progress={shown.progress} status={shown.status} />,
        },
        {
          key: 'submit',
          label: t('drawing.column.submitTime'),
          children: <TimeCell time={shown.submit_time} unit={unit} />,
        },
        {
          key: 'start',
          label: t('drawing.column.startTime'),
          children: <TimeCell time={shown.start_time} unit={unit} />,
        },
        {
          key: 'finish',
          label: t('drawing.column.finishTime'),
          children: <TimeCell time={shown.finish_time} unit={unit} />,
        },
        {
          key: 'image',
          label: t('drawing.column.image'),
          children: image ? (
            <Thumbnail
              src={image}
              alt={t('drawing.imageAlt', { id: shown.mj_id })}
              size={320}
              square={false}
            />
          ) : (
            <Typography.Text type="secondary">{t('drawing.noImage')}</Typography.Text>
          ),
        },
        { key: 'prompt', label: t('drawing.column.prompt'), children: textBlock(shown.prompt ?? '') },
        { key: 'prompt_en', label: t('drawing.column.promptEn'), children: textBlock(shown.prompt_en ?? '') },
        {
          key: 'description',
          label: t('drawing.column.description'),
          children: textBlock(shown.description ?? ''),
        },
        {
          key: 'fail_reason',
          label: t('drawing.column.failReason'),
          children: textBlock(shown.fail_reason ?? ''),
        },
      ]
    : [];
  return (
    <Modal open={drawing !== null} title={t('drawing.details')} onCancel={onClose} footer={null} width={720}>
      <Descriptions column={1} size="small" bordered items={items} />
    </Modal>
  );
}
