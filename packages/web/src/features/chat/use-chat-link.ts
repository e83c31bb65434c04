// The address a chat page opens: the configured template, the user's enabled token key and this
// server's address. With no enabled token the user is told so and sent to /token after 1.5 s.
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useFeedback } from '../../components/feedback';
import { useStatus, useStatusLoaded } from '../../lib/status';
import { useEnabledTokenKey } from './api';
import { chatTemplate, fillChatLink, serverAddress } from './chat-link';
import type { ChatLinkProblem } from './chat-link';

export const NO_TOKEN_REDIRECT_MS = 1500;

export type ChatLinkState =
  | { kind: 'loading' }
  | { kind: 'problem'; problem: ChatLinkProblem }
  | { kind: 'no-token' }
  | { kind: 'failed'; retry(): void }
  | { kind: 'ready'; url: string };

export function useChatLink(target: { id?: string } | 'link2'): ChatLinkState {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const navigate = useNavigate();
  const status = useStatus();
  const statusLoaded = useStatusLoaded();
  const template = chatTemplate(status, target);
  const token = useEnabledTokenKey(template.ok);
  const noToken = token.isSuccess && token.data === null;

  useEffect(() => {
    if (!noToken) return;
    // Keyed so a repeated effect (development double-run) shows the toast once.
    void message.error({ content: t('chat.noToken'), key: 'chat-no-token' });
    const timer = window.setTimeout(() => void navigate('/token'), NO_TOKEN_REDIRECT_MS);
    return () => window.clearTimeout(timer);
  }, [noToken, message, navigate, t]);

  if (!template.ok) {
    // The stored status may be older than the server's: judge the configuration on the fresh one.
    return statusLoaded ? { kind: 'problem', problem: template.problem } : { kind: 'loading' };
  }
  if (token.isError) return { kind: 'failed', retry: () => void token.refetch() };
  if (!token.isSuccess) return { kind: 'loading' };
  if (token.data === null) return { kind: 'no-token' };
  const address = serverAddress(status.server_address, window.location.origin);
  return { kind: 'ready', url: fillChatLink(template.template, { key: token.data, address }) };
}
