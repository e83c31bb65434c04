// Everything recorded about one async task, including the long texts the table shortens.
import { Descriptions, Modal, Typography } from 'antd';
import type { DescriptionsProps } from 'antd';
import type { TaskItem } from '@sluice/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTimestamp } from '../../lib/dates';
import { actionLabel, platformLabel } from './task-columns';
import { StatusTag } from './task-cells';

const block = (text: string) =>
  text === '' ? (
    '-'
  ) : (
    <Typography.Paragraph
      copyable={{ text }}
      style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word', margin: 0, maxHeight: 240, overflow: 'auto' }}
    >
      {text}
    </Typography.Paragraph>
  );

export function TaskDetailsDialog({ task, onClose }: { task: TaskItem | null; onClose(): void }) {
  const { t } = useTranslation();
  // The last task shown stays while the dialog closes.
  const [shown, setShown] = useState(task);
  if (task !== null && task !== shown) setShown(task);
  const items: DescriptionsProps['items'] = shown
    ? [
        { key: 'task_id', label: t('tasks.column.taskId'), children: block(shown.task_id) },
        { key: 'platform', label: t('tasks.column.platform'), children: platformLabel(shown.platform, t) },
        { key: 'action', label: t('tasks.column.action'), children: actionLabel(shown.action, t) },
        { key: 'status', label: t('tasks.column.status'), children: <StatusTag status={shown.status} /> },
        { key: 'progress', label: t('tasks.column.progress'), children: shown.progress || '-' },
        { key: 'submit', label: t('tasks.column.submitTime'), children: formatTimestamp(shown.submit_time) },
        { key: 'start', label: t('tasks.column.startTime'), children: formatTimestamp(shown.start_time) },
        { key: 'finish', label: t('tasks.column.finishTime'), children: formatTimestamp(shown.finish_time) },
        { key: 'fail', label: t('tasks.column.failReason'), children: block(shown.fail_reason) },
        { key: 'data', label: t('tasks.column.data'), children: block(shown.data) },
      ]
    : [];
  return (
    <Modal open={task !== null} title={t('tasks.details')} onCancel={onClose} footer={null} width={640}>
      <Descriptions column={1} size="small" bordered items={items} />
    </Modal>
  );
}
