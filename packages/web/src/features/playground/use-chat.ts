// Runs the playground conversation: sends the request for each question, feeds the streamed pieces
// into the reducer, and stops, clears or fails the answer in progress.
import { useCallback, useEffect, useReducer, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { translateServerMessage } from '../../lib/api';
import { clearUser } from '../../lib/session';
import { ChatStreamError, streamChat } from './chat-stream';
import { buildRequest, chatReducer, initialChatState, pendingAnswer } from './chat-state';
import type { ChatState, PlaygroundSettings } from './chat-state';

export interface Chat {
  state: ChatState;
  /** An answer is loading or streaming. */
  busy: boolean;
  /** Starts a question; false when nothing was sent (empty text, or an answer still running). */
  send(text: string): boolean;
  stop(): void;
  clear(): void;
}

export function useChat(settings: PlaygroundSettings): Chat {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [state, dispatch] = useReducer(chatReducer, initialChatState);
  const running = useRef<{ id: number; controller: AbortController } | null>(null);

  // Leaving the page ends the answer in progress.
  useEffect(() => () => running.current?.controller.abort(), []);

  const describe = useCallback(
    (error: unknown): string => {
      if (!(error instanceof ChatStreamError)) return error instanceof Error ? error.message : String(error);
      if (error.kind === 'network') return t('playground.cannotConnect', { message: error.message });
      if (error.kind === 'cut') return t('playground.streamCut');
      if (error.status === 401) return t('msg.loginExpired');
      return translateServerMessage(error.message);
    },
    [t],
  );

  const send = useCallback(
    (text: string): boolean => {
      const next = chatReducer(state, { type: 'send', text });
      const answer = pendingAnswer(next);
      if (next === state || !answer) return false;
      const id = answer.id;
      dispatch({ type: 'send', text });
      const controller = new AbortController();
      running.current = { id, controller };
      streamChat(
        buildRequest(next, settings),
        { onDelta: (piece) => dispatch({ type: 'delta', id, text: piece }) },
        controller.signal,
      )
        .then(() => dispatch({ type: 'done', id }))
        .catch((error: unknown) => {
          if (controller.signal.aborted) {
            dispatch({ type: 'stop', id });
            return;
          }
          dispatch({ type: 'error', id, message: describe(error) });
          if (error instanceof ChatStreamError && error.kind === 'answer' && error.status === 401) {
            // The session is gone: the same as any console call (lib/api.ts).
            clearUser();
            void navigate('/login?expired=true');
          }
        })
        .finally(() => {
          if (running.current?.id === id) running.current = null;
        });
      return true;
    },
    [state, settings, describe, navigate],
  );

  const stop = useCallback(() => running.current?.controller.abort(), []);

  const clear = useCallback(() => {
    running.current?.controller.abort();
    dispatch({ type: 'clear' });
  }, []);

  return { state, busy: pendingAnswer(state) !== undefined, send, stop, clear };
}
