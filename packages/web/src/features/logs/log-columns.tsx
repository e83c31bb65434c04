// The columns of the log table (spec part 2 §2/§3): channel and user only for admins; timing
// figures coloured by the spec's thresholds; quota as the site displays it; details worded in the
// reader's language.
import { Button, Space, Tag, Tooltip, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { LOG_TYPE } from '@sluice/shared';
import type { LogItem } from '@sluice/shared';
import type { TFunction } from 'i18next';
import { formatTimestamp } from '../../lib/dates';
import { callTimeColour, firstTokenColour } from './colours';
import { otherOf } from './log-other';
import { logText } from './log-text';
import { logTypeTag } from './log-types';

export interface LogColumnOptions {
  t: TFunction;
  admin: boolean;
  formatQuota(quota: number): string;
  onUser(userId: number): void;
}

const dash = <Typography.Text type="secondary">-</Typography.Text>;
const isCall = (log: LogItem) => log.type === LOG_TYPE.consume || log.type === LOG_TYPE.error;

export function logColumns({ t, admin, formatQuota, onUser }: LogColumnOptions): TableColumnsType<LogItem> {
  const columns: TableColumnsType<LogItem> = [
    {
      title: t('logs.column.time'),
      key: 'time',
      render: (_, log) => <span style={{ whiteSpace: 'nowrap' }}>{formatTimestamp(log.created_at)}</span>,
    },
  ];
  if (admin) {
    columns.push(
      {
        title: t('logs.column.channel'),
        key: 'channel',
        render: (_, log) => {
          if (!isCall(log) || !log.channel) return dash;
          const tried = otherOf(log).admin_info?.use_channel ?? [];
          const tag = <Tag color="blue">{log.channel}</Tag>;
          const name = log.channel_name ?? '';
          const retried = tried.length > 1;
          if (name === '' && !retried) return tag;
          const tip = (
            <>
              {name !== '' && <div>{name}</div>}
              {retried && <div>{t('logs.detail.channelsTried', { channels: tried.join(' → ') })}</div>}
            </>
          );
          return <Tooltip title={tip}>{tag}</Tooltip>;
        },
      },
      {
        title: t('logs.column.user'),
        key: 'user',
        render: (_, log) =>
          log.username ? (
            <Button
              type="link"
              size="small"
              style={{ padding: 0 }}
              aria-label={t('logs.userInfo.open', { username: log.username })}
              onClick={() => onUser(log.user_id)}
            >
              {log.username}
            </Button>
          ) : (
            dash
          ),
      },
    );
  }
  columns.push(
    {
      title: t('logs.column.token'),
      key: 'token',
      render: (_, log) => (log.token_name ? <Tag>{log.token_name}</Tag> : dash),
    },
    {
      title: t('logs.column.type'),
      key: 'type',
      render: (_, log) => {
        const tag = logTypeTag(log.type);
        return <Tag color={tag.colour}>{t(`logs.type.${tag.name}`)}</Tag>;
      },
    },
    {
      title: t('logs.column.model'),
      key: 'model',
      render: (_, log) => {
        if (!log.model_name) return dash;
        const upstream = otherOf(log).upstream_model_name;
        const tag = <Tag color="geekblue">{log.model_name}</Tag>;
        return upstream ? (
          <Tooltip title={t('logs.detail.upstreamModel', { model: upstream })}>{tag}</Tooltip>
        ) : (
          tag
        );
      },
    },
    {
      // Total time, time to the first token (streams only: for other calls the relay's figure is the
      // whole answer), and whether the call streamed.
      title: t('logs.column.useTime'),
      key: 'timing',
      render: (_, log) => {
        if (!isCall(log)) return dash;
        const frt = otherOf(log).frt;
        const seconds = (ms: number) => t('logs.seconds', { value: (ms / 1000).toFixed(ms < 1000 ? 2 : 1) });
        return (
          <Space size={4} wrap={false}>
            <Tag color={callTimeColour(log.use_time)} style={{ margin: 0 }}>
              {t('logs.seconds', { value: log.use_time })}
            </Tag>
            {log.is_stream && frt !== undefined && frt > 0 && (
              <Tooltip title={t('logs.column.firstToken')}>
                <Tag
                  color={firstTokenColour(frt)}
                  style={{ margin: 0 }}
                  aria-label={`${t('logs.column.firstToken')}: ${seconds(frt)}`}
                >
                  {seconds(frt)}
                </Tag>
              </Tooltip>
            )}
            <Tag color={log.is_stream ? 'blue' : 'purple'} style={{ margin: 0 }}>
              {log.is_stream ? t('logs.stream.yes') : t('logs.stream.no')}
            </Tag>
          </Space>
        );
      },
    },
    {
      title: t('logs.column.prompt'),
      key: 'prompt',
      align: 'right',
      render: (_, log) => (isCall(log) ? log.prompt_tokens : dash),
    },
    {
      title: t('logs.column.completion'),
      key: 'completion',
      align: 'right',
      render: (_, log) => (isCall(log) ? log.completion_tokens : dash),
    },
    {
      title: t('logs.column.quota'),
      key: 'quota',
      align: 'right',
      render: (_, log) => (log.quota !== 0 ? formatQuota(log.quota) : dash),
    },
    {
      title: t('logs.column.details'),
      key: 'content',
      render: (_, log) => {
        const text = logText(log, otherOf(log), { t, formatQuota });
        return text ? (
          <Typography.Text ellipsis={{ tooltip: text }} style={{ maxWidth: 240 }}>
            {text}
          </Typography.Text>
        ) : (
          dash
        );
      },
    },
  );
  return columns;
}
