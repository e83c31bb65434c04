// The conversation: the message list (kept scrolled to the newest message) and the input with send
// (Enter), stop and clear context.
import { ClearOutlined, SendOutlined, SettingOutlined, StopOutlined } from '@ant-design/icons';
import { Button, Card, Empty, Flex, Input, Space, Tooltip } from 'antd';
import type { KeyboardEvent } from 'react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFeedback } from '../../components/feedback';
import type { Chat } from './use-chat';
import { MessageItem } from './message-item';
import './playground.css';

export interface ChatBoxProps {
  chat: Chat;
  /** A model is chosen, so a question can go out. */
  canSend: boolean;
  height: string;
  /** Phones: the settings live in a drawer opened from here, and buttons show only their icons. */
  compact?: { onOpenSettings(): void };
}

export function ChatBox({ chat, canSend, height, compact }: ChatBoxProps) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const [draft, setDraft] = useState('');
  const listRef = useRef<HTMLDivElement>(null);
  const { messages } = chat.state;
  const last = messages.at(-1);

  // Follow the answer as it grows.
  useEffect(() => {
    const list = listRef.current;
    if (list) list.scrollTop = list.scrollHeight;
  }, [messages.length, last?.content, last?.status]);

  const submit = () => {
    if (!canSend) {
      void message.warning(t('playground.chooseModel'));
      return;
    }
    if (chat.send(draft)) setDraft('');
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    // Enter sends; Shift+Enter is a new line; Enter that confirms an IME composition is not a send.
    if (e.key !== 'Enter' || e.shiftKey || e.nativeEvent.isComposing) return;
    e.preventDefault();
    submit();
  };

  return (
    <Card
      title={<h1 style={{ fontSize: 'inherit', margin: 0 }}>{t('playground.title')}</h1>}
      extra={
        <Space>
          {compact && (
            <Button icon={<SettingOutlined />} onClick={compact.onOpenSettings}>
              {t('playground.openSettings')}
            </Button>
          )}
          <Tooltip title={t('playground.clear')}>
            <Button
              icon={<ClearOutlined />}
              aria-label={t('playground.clear')}
              disabled={messages.length === 0}
              onClick={chat.clear}
            >
              {compact ? null : t('playground.clear')}
            </Button>
          </Tooltip>
        </Space>
      }
      style={{ height, display: 'flex', flexDirection: 'column', minHeight: 360 }}
      styles={{ body: { flex: 1, minHeight: 0, display: 'flex', flexDirection: 'column', gap: 12 } }}
    >
      <div
        ref={listRef}
        role="list"
        aria-label={t('playground.messages')}
        aria-live="polite"
        style={{
          flex: 1,
          minHeight: 0,
          overflowY: 'auto',
          display: 'flex',
          flexDirection: 'column',
          gap: 12,
        }}
      >
        {messages.length === 0 ? (
          <Flex flex={1} align="center" justify="center">
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('playground.empty')} />
          </Flex>
        ) : (
          messages.map((m) => <MessageItem key={m.id} message={m} />)
        )}
      </div>
      <Flex gap={8} align="flex-end">
        <Input.TextArea
          aria-label={t('playground.inputLabel')}
          placeholder={t('playground.inputPlaceholder')}
          autoSize={{ minRows: 1, maxRows: 6 }}
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={onKeyDown}
        />
        {chat.busy ? (
          <Button
            key="stop"
            danger
            icon={<StopOutlined />}
            aria-label={t('playground.stop')}
            onClick={chat.stop}
          >
            {compact ? null : t('playground.stop')}
          </Button>
        ) : (
          <Button
            key="send"
            type="primary"
            icon={<SendOutlined />}
            aria-label={t('playground.send')}
            disabled={!canSend || draft.trim() === ''}
            onClick={submit}
          >
            {compact ? null : t('playground.send')}
          </Button>
        )}
      </Flex>
    </Card>
  );
}
