// /chat/:id? : the configured chat front-end in a full-height frame, signed in with the user's key.
import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useIsMobile } from '../../app/layout/use-is-mobile';
import { ChatStatus } from './chat-status';
import { useChatLink } from './use-chat-link';

export function ChatPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const isMobile = useIsMobile();
  const state = useChatLink({ id });
  if (state.kind !== 'ready') return <ChatStatus state={state} />;
  return (
    <iframe
      src={state.url}
      title={t('chat.frameTitle')}
      allow="clipboard-read; clipboard-write; microphone"
      style={{
        display: 'block',
        width: '100%',
        // The top bar (56) and the content padding above and below.
        height: isMobile ? 'calc(100vh - 80px)' : 'calc(100vh - 104px)',
        border: 'none',
      }}
    />
  );
}
