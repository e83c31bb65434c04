// POST /pg/chat/completions as a stream: the signed-in session plus the New-Api-User header, read
// with a ReadableStream and the SSE reader. The relay answers failures in the OpenAI error format.
import { getUser } from '../../lib/session';
import { SseParser, readChatEvent } from './sse';

export interface ChatRequestBody {
  messages: Array<{ role: 'system' | 'user' | 'assistant'; content: string }>;
  stream: true;
  model: string;
  group: string;
  max_tokens: number;
  temperature: number;
}

/**
 * A failed answer. `network`: the server could not be reached; `answer`: an error answer (status
 * 401 when the session is gone); `event`: an error event inside the stream; `cut`: the stream
 * ended before its done marker. `message` is the server's sentence where there is one.
 */
export class ChatStreamError extends Error {
  constructor(
    readonly kind: 'network' | 'answer' | 'event' | 'cut',
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ChatStreamError';
  }
}

export const PLAYGROUND_URL = '/pg/chat/completions';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The sentence of an error answer: OpenAI's {error: {message}} or the console's {message}. */
function errorMessage(body: unknown, fallback: string): string {
  if (isRecord(body)) {
    const error = body.error;
    if (isRecord(error) && typeof error.message === 'string' && error.message !== '') return error.message;
    if (typeof body.message === 'string' && body.message !== '') return body.message;
  }
  return fallback;
}

export interface StreamHandlers {
  onDelta(text: string): void;
}

/**
 * Sends the request and calls onDelta for each piece of the answer. Resolves when the stream says
 * it is done; rejects with ChatStreamError on an error answer or event, or on a stream cut short,
 * and with the fetch's AbortError when `signal` aborts.
 */
export async function streamChat(
  body: ChatRequestBody,
  handlers: StreamHandlers,
  signal?: AbortSignal,
): Promise<void> {
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    Accept: 'text/event-stream',
  };
  const user = getUser();
  if (user) headers['New-Api-User'] = String(user.id);

  let response: Response;
  try {
    response = await fetch(PLAYGROUND_URL, {
      method: 'POST',
      headers,
      credentials: 'same-origin',
      body: JSON.stringify(body),
      signal,
    });
  } catch (cause) {
    if (signal?.aborted) throw cause;
    throw new ChatStreamError('network', 0, cause instanceof Error ? cause.message : String(cause));
  }

  if (!response.ok || !response.body) {
    const answer: unknown = await response.json().catch(() => null);
    throw new ChatStreamError(
      'answer',
      response.status,
      errorMessage(answer, response.statusText || `HTTP ${response.status}`),
    );
  }

  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  const parser = new SseParser();
  const handle = (events: string[]): boolean => {
    for (const data of events) {
      const event = readChatEvent(data);
      if (event.kind === 'delta') handlers.onDelta(event.text);
      else if (event.kind === 'error') throw new ChatStreamError('event', response.status, event.message);
      else if (event.kind === 'done') return true;
    }
    return false;
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (handle(parser.push(decoder.decode(value, { stream: true })))) return;
    }
    if (handle([...parser.push(decoder.decode()), ...parser.end()])) return;
  } finally {
    // Done, failed or aborted: nothing more is read from this answer.
    reader.cancel().catch(() => undefined);
  }
  throw new ChatStreamError('cut', response.status, '');
}
