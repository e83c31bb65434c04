// Everything recorded about one async task, including the long texts the table shortens: the result
// at full size (songs with their players, the whole lyrics) and the upstream's data, indented when
// it is JSON.
import { Descriptions, Modal, Typography } from 'antd';
import type { DescriptionsProps } from 'antd';
import type { TaskItem } from '@sluice/shared';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTimestamp } from '../../lib/dates';
import { actionLabel, platformLabel } from './task-columns';
import { ProgressCell, StatusTag } from './task-cells';
import { readTaskResult } from './task-data';
import { TaskResultView } from './task-result';

export const textBlock = (text: string) =>
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

/** JSON text indented for reading; anything else as it is. */
export function indentedJson(text: string, parsed: unknown): string {
  if (parsed === undefined) return text;
  try {
    return JSON.stringify(parsed, null, 2);
  } catch {
    return text;
  }
}

export function TaskDetailsDialog({ task, onClose }: { task: TaskItem | null; onClose(): void }) {
  const { t } = useTranslation();
  // The last task shown stays while the dialog closes.
  const [shown, setShown] = useState(task);
  if (task !== null && task !== shown) setShown(task);
  const result = useMemo(() => readTaskResult(shown?.data), [shown]);
  const items: DescriptionsProps['items'] = shown
    ? [
        { key: 'task_id', label: t('tasks.column.taskId'), children: textBlock(shown.task_id) },
        { key: 'platform', label: t('tasks.column.platform'), children: platformLabel(shown.platform, t) },
        { key: 'action', label: t('tasks.column.action'), children: actionLabel(shown.action, t) },
        { key: 'status', label: t('tasks.column.status'), children: <StatusTag status={shown.status} /> },
        {
          key: 'progress',
          label: t('tasks.column.progress'),
          children: <ProgressCell progress={shown.progress} status={shown.status} />,
        },
        { key: 'submit', label: t('tasks.column.submitTime'), children: formatTimestamp(shown.submit_time) },
        { key: 'start', label: t('tasks.column.startTime'), children: formatTimestamp(shown.start_time) },
        { key: 'finish', label: t('tasks.column.finishTime'), children: formatTimestamp(shown.finish_time) },
        { key: 'fail', label: t('tasks.column.failReason'), children: textBlock(shown.fail_reason ?? '') },
        { key: 'result', label: t('tasks.column.result'), children: <TaskResultView result={result} wide /> },
        {
          key: 'data',
          label: t('tasks.column.data'),
          children: textBlock(indentedJson(shown.data ?? '', result.json)),
        },
      ]
    : [];
  return (
    <Modal open={task !== null} title={t('tasks.details')} onCancel={onClose} footer={null} width={720}>
      <Descriptions column={1} size="small" bordered items={items} />
    </Modal>
  );
}
