// The columns of the async task table (spec part 2 §3/§4); times in seconds; the channel only for
// admins; what a task produced (songs with players, lyrics) in its own column. The columns a user
// looks for first (which task, how it stands, what it made) come first, so that a laptop screen
// shows them without scrolling sideways.
import { Tag, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import type { TaskItem } from '@sluice/shared';
import type { TFunction } from 'i18next';
import { LongText } from '../logs/components/long-text';
import { TASK_LIST } from './api';
import { taskAction } from './labels';
import { DurationCell, ProgressCell, StatusTag, TimeCell } from './task-cells';
import { TaskResultCell } from './task-result';

const unit = TASK_LIST.timeUnit;

export function platformLabel(platform: string, t: TFunction): string {
  return platform === 'suno' ? t('tasks.platform.suno') : platform || '-';
}

export function actionLabel(action: string, t: TFunction): string {
  const known = taskAction(action);
  return known ? t(`tasks.action.${known}`) : action || '-';
}

export function taskColumns({
  t,
  admin,
  onDetails,
  pinResult = false,
}: {
  t: TFunction;
  admin: boolean;
  onDetails(task: TaskItem): void;
  /**
   * Keep the result column at the right edge while the table scrolls sideways: it is what a user
   * comes for (the players), and on a laptop screen it would start beyond the edge. Wide screens only.
   */
  pinResult?: boolean;
}): TableColumnsType<TaskItem> {
  const columns: TableColumnsType<TaskItem> = [
    {
      title: t('tasks.column.submitTime'),
      key: 'submit',
      render: (_, task) => <TimeCell time={task.submit_time} unit={unit} />,
    },
    {
      title: t('tasks.column.taskId'),
      key: 'task_id',
      // Sluice's ids are UUIDs: shortened here, whole in the tooltip and the details.
      render: (_, task) => (
        <Typography.Link
          onClick={() => onDetails(task)}
          title={task.task_id}
          ellipsis
          style={{ display: 'inline-block', maxWidth: 150 }}
        >
          {task.task_id || '-'}
        </Typography.Link>
      ),
    },
    {
      title: t('tasks.column.status'),
      key: 'status',
      render: (_, task) => <StatusTag status={task.status} />,
    },
    {
      title: t('tasks.column.progress'),
      key: 'progress',
      render: (_, task) => <ProgressCell progress={task.progress} status={task.status} />,
    },
    {
      title: t('tasks.column.action'),
      key: 'action',
      render: (_, task) => <Tag color="geekblue">{actionLabel(task.action, t)}</Tag>,
    },
    {
      title: t('tasks.column.platform'),
      key: 'platform',
      render: (_, task) => <Tag color="purple">{platformLabel(task.platform, t)}</Tag>,
    },
  ];
  if (admin) {
    columns.push({
      title: t('tasks.column.channel'),
      key: 'channel',
      render: (_, task) => <Tag color="blue">{task.channel_id ?? '-'}</Tag>,
    });
  }
  columns.push(
    {
      title: t('tasks.column.duration'),
      key: 'duration',
      render: (_, task) => (
        <DurationCell submitTime={task.submit_time} finishTime={task.finish_time} unit={unit} />
      ),
    },
    {
      title: t('tasks.column.finishTime'),
      key: 'finish',
      render: (_, task) => <TimeCell time={task.finish_time} unit={unit} />,
    },
    {
      title: t('tasks.column.failReason'),
      key: 'fail_reason',
      render: (_, task) => (
        <LongText text={task.fail_reason ?? ''} title={t('tasks.column.failReason')} width={160} />
      ),
    },
    {
      title: t('tasks.column.result'),
      key: 'result',
      fixed: pinResult ? 'right' : undefined,
      render: (_, task) => <TaskResultCell data={task.data} />,
    },
  );
  return columns;
}
