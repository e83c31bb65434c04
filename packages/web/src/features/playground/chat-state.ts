// The playground conversation as a reducer (spec part 2 §4): an answer starts `loading`, becomes
// `incomplete` with its first piece of text, and ends `complete` (done, or stopped by the user) or
// `error` (with the reason). Pure, so the transitions are unit-tested.
import type { ChatRequestBody } from './chat-stream';

export type MessageStatus = 'loading' | 'incomplete' | 'complete' | 'error';

export interface ChatMessage {
  id: number;
  role: 'user' | 'assistant';
  content: string;
  status: MessageStatus;
  /** Why the answer failed (status `error`). */
  error?: string;
  /** The user stopped the answer before it was done. */
  stopped?: boolean;
}

export interface ChatState {
  messages: ChatMessage[];
  nextId: number;
}

/** Events of an answer name it by id, so a late event of a cleared or stopped answer is ignored. */
export type ChatAction =
  | { type: 'send'; text: string }
  | { type: 'delta'; id: number; text: string }
  | { type: 'done'; id: number }
  | { type: 'stop'; id: number }
  | { type: 'error'; id: number; message: string }
  | { type: 'clear' };

export const initialChatState: ChatState = { messages: [], nextId: 1 };

const answering = (m: ChatMessage | undefined): m is ChatMessage =>
  m !== undefined && m.role === 'assistant' && (m.status === 'loading' || m.status === 'incomplete');

/** The answer being written, if any (always the last message). */
export const pendingAnswer = (state: ChatState): ChatMessage | undefined => {
  const last = state.messages.at(-1);
  return answering(last) ? last : undefined;
};

function updateAnswer(state: ChatState, id: number, change: (m: ChatMessage) => ChatMessage): ChatState {
  const last = state.messages.at(-1);
  // A late event for an answer already finished, stopped or cleared changes nothing.
  if (!answering(last) || last.id !== id) return state;
  return { ...state, messages: [...state.messages.slice(0, -1), change(last)] };
}

export function chatReducer(state: ChatState, action: ChatAction): ChatState {
  switch (action.type) {
    case 'send': {
      if (pendingAnswer(state) || action.text.trim() === '') return state;
      const id = state.nextId;
      return {
        nextId: id + 2,
        messages: [
          ...state.messages,
          { id, role: 'user', content: action.text, status: 'complete' },
          { id: id + 1, role: 'assistant', content: '', status: 'loading' },
        ],
      };
    }
    case 'delta':
      return updateAnswer(state, action.id, (m) => ({
        ...m,
        content: m.content + action.text,
        status: 'incomplete',
      }));
    case 'done':
      return updateAnswer(state, action.id, (m) => ({ ...m, status: 'complete' }));
    case 'stop':
      return updateAnswer(state, action.id, (m) => ({ ...m, status: 'complete', stopped: true }));
    case 'error':
      return updateAnswer(state, action.id, (m) => ({ ...m, status: 'error', error: action.message }));
    case 'clear':
      return { ...state, messages: [] };
  }
}

export interface PlaygroundSettings {
  group: string;
  model: string;
  temperature: number;
  maxTokens: number;
  systemPrompt: string;
}

/**
 * The request for the answer now loading: the system prompt, then the conversation so far. Failed
 * answers (and the question they answered) are left out so a retry does not repeat them.
 */
export function buildRequest(state: ChatState, settings: PlaygroundSettings): ChatRequestBody {
  const messages: ChatRequestBody['messages'] = [];
  if (settings.systemPrompt.trim() !== '') messages.push({ role: 'system', content: settings.systemPrompt });
  const list = state.messages;
  list.forEach((m, index) => {
    if (m.role === 'assistant') {
      if (m.status === 'complete' && m.content !== '')
        messages.push({ role: 'assistant', content: m.content });
      return;
    }
    const answer = list[index + 1];
    if (answer?.status === 'error') return;
    messages.push({ role: 'user', content: m.content });
  });
  return {
    messages,
    stream: true,
    model: settings.model,
    group: settings.group,
    max_tokens: settings.maxTokens,
    temperature: settings.temperature,
  };
}
