// /chat2link: straight on to the second chat link, with the user's key and this server's address.
import { useEffect } from 'react';
import { ChatStatus } from './chat-status';
import { leaveTo } from './leave';
import { useChatLink } from './use-chat-link';

export function Chat2LinkPage() {
  const state = useChatLink('link2');
  const url = state.kind === 'ready' ? state.url : null;
  useEffect(() => {
    if (url !== null) leaveTo(url);
  }, [url]);
  return <ChatStatus state={state.kind === 'ready' ? { kind: 'loading' } : state} />;
}
