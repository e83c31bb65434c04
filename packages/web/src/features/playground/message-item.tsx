// One message of the conversation. Answers are Markdown, rendered to sanitised HTML.
import { LoadingOutlined, RobotOutlined, UserOutlined } from '@ant-design/icons';
import { Alert, Avatar, Flex, Tag, Typography, theme } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { renderMarkdown } from '../../lib/markdown';
import type { ChatMessage } from './chat-state';

export function MessageItem({ message }: { message: ChatMessage }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const mine = message.role === 'user';
  const html = useMemo(
    () => (mine || message.content === '' ? '' : renderMarkdown(message.content)),
    [mine, message.content],
  );
  const label = mine ? t('playground.you') : t('playground.assistant');

  return (
    <Flex
      gap={8}
      align="flex-start"
      justify={mine ? 'flex-end' : 'flex-start'}
      data-role={message.role}
      data-status={message.status}
      role="listitem"
      aria-label={label}
    >
      {!mine && (
        <Avatar
          size="small"
          icon={<RobotOutlined />}
          style={{ flex: 'none', background: token.colorPrimary }}
        />
      )}
      <div
        style={{
          maxWidth: 'min(720px, 85%)',
          minWidth: 0,
          padding: '8px 12px',
          borderRadius: token.borderRadiusLG,
          background: mine ? token.colorPrimaryBg : token.colorFillQuaternary,
          border: `1px solid ${mine ? token.colorPrimaryBorder : token.colorBorderSecondary}`,
          overflowWrap: 'anywhere',
        }}
      >
        {mine ? (
          <div style={{ whiteSpace: 'pre-wrap' }}>{message.content}</div>
        ) : (
          <>
            {html !== '' && (
              <Typography className="playground-answer">
                <div dangerouslySetInnerHTML={{ __html: html }} />
              </Typography>
            )}
            {message.status === 'loading' && (
              <Typography.Text type="secondary">
                <LoadingOutlined /> {t('playground.thinking')}
              </Typography.Text>
            )}
            {message.status === 'incomplete' && (
              <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
                <LoadingOutlined /> {t('playground.writing')}
              </Typography.Text>
            )}
            {message.stopped && <Tag style={{ marginTop: 4 }}>{t('playground.stopped')}</Tag>}
            {message.status === 'error' && (
              <Alert
                type="error"
                showIcon
                role="alert"
                style={{ marginTop: html === '' ? 0 : 8 }}
                title={t('playground.failed')}
                description={message.error}
              />
            )}
          </>
        )}
      </div>
      {mine && <Avatar size="small" icon={<UserOutlined />} style={{ flex: 'none' }} />}
    </Flex>
  );
}
