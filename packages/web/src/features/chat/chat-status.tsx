// What a chat page shows until (or instead of) the chat: loading, a configuration problem, no
// enabled token, or a failed token lookup.
import { Button, Flex, Result, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { ChatLinkState } from './use-chat-link';

export function ChatStatus({ state }: { state: Exclude<ChatLinkState, { kind: 'ready' }> }) {
  const { t } = useTranslation();
  switch (state.kind) {
    case 'loading':
      return (
        <Flex justify="center" style={{ padding: 48 }}>
          <Spin description={t('chat.opening')} />
        </Flex>
      );
    case 'problem':
      return <Result status="warning" title={t(`chat.${state.problem}`)} />;
    case 'no-token':
      return (
        <Result
          status="info"
          title={t('chat.noToken')}
          subTitle={t('chat.noTokenHint')}
          extra={
            <Link to="/token">
              <Button type="primary">{t('chat.toTokens')}</Button>
            </Link>
          }
        />
      );
    case 'failed':
      return (
        <Result
          status="error"
          title={t('chat.failed')}
          extra={<Button onClick={state.retry}>{t('chat.retry')}</Button>}
        />
      );
  }
}
