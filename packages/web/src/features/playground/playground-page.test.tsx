// The playground as a user meets it: defaults, a streamed answer growing on screen, failures with
// their reason, stop, clear context and the expired-login notice.
import { cleanup, configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadSections } from '../../i18n';
import { clearUser, getUser, setUser } from '../../lib/session';
import { DEFAULT_STATUS } from '../../lib/status';
import { installFetch, ok } from '../../test/fake-fetch';
import { renderPage } from '../../test/render';
import { PlaygroundPage } from './playground-page';

vi.setConfig({ testTimeout: 30_000 });
configure({ asyncUtilTimeout: 5_000 });

interface PlayCall {
  body: Record<string, unknown>;
  headers: Headers;
  signal: AbortSignal | null | undefined;
}

/** A stream the test writes to, piece by piece. */
function openStream(signal: AbortSignal | null | undefined) {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({
    start: (c) => {
      controller = c;
    },
  });
  // As a real fetch does: aborting fails the body being read.
  signal?.addEventListener('abort', () => controller.error(new DOMException('aborted', 'AbortError')));
  const encoder = new TextEncoder();
  return {
    body,
    write: (text: string) => controller.enqueue(encoder.encode(text)),
    end: () => controller.close(),
  };
}

type Stream = ReturnType<typeof openStream>;
const piece = (content: string) =>
  `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content } }] })}\n\n`;

/** Serves the page's JSON calls and hands each playground request to `answer`. */
function serve(answer: (stream: Stream) => { status: number; json?: unknown } | void) {
  installFetch({
    'GET /api/status': ok(DEFAULT_STATUS),
    'GET /api/user/self/groups': ok({
      default: { ratio: 1, desc: 'your current group' },
      vip: { ratio: 2, desc: 'VIP' },
    }),
    'GET /api/user/models': ok(['gpt-4o', 'gpt-4o-mini']),
  });
  const jsonFetch = globalThis.fetch;
  const plays: PlayCall[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    if (String(input) !== '/pg/chat/completions') return jsonFetch(input, init);
    plays.push({
      body: JSON.parse(String(init?.body)) as Record<string, unknown>,
      headers: new Headers(init?.headers),
      signal: init?.signal,
    });
    const stream = openStream(init?.signal);
    const error = answer(stream);
    if (error) {
      return {
        ok: false,
        status: error.status,
        statusText: '',
        body: null,
        json: () => Promise.resolve(error.json),
      } as unknown as Response;
    }
    return { ok: true, status: 200, statusText: 'OK', body: stream.body } as unknown as Response;
  });
  return plays;
}

const chosenModel = () => document.querySelector('#playground-model')?.closest('.ant-select')?.textContent;

async function ask(text: string) {
  // Questions go out once the model list has arrived and a model is chosen.
  await waitFor(() => expect(chosenModel()).toContain('gpt-4o-mini'));
  const input = await screen.findByLabelText('Message');
  fireEvent.change(input, { target: { value: text } });
  fireEvent.keyDown(input, { key: 'Enter' });
}

const answers = () => screen.queryAllByRole('listitem', { name: 'Assistant' });

beforeAll(() => loadSections());
beforeEach(() => {
  localStorage.clear();
  setUser({ id: 5, username: 'pat', display_name: '', role: 1, status: 1, group: 'default' });
});
afterEach(() => {
  cleanup();
  clearUser();
  vi.unstubAllGlobals();
});

describe('playground', () => {
  it('sends with the defaults and shows the answer growing, then complete and rendered', async () => {
    let stream: Stream | undefined;
    const plays = serve((s) => {
      stream = s;
    });
    renderPage(<PlaygroundPage />, { path: '/playground' });
    // gpt-4o-mini is chosen when the group has it.
    await waitFor(() => expect(chosenModel()).toContain('gpt-4o-mini'));

    await ask('hello there');
    await waitFor(() => expect(plays).toHaveLength(1));
    expect(plays[0]?.body).toEqual({
      messages: [{ role: 'user', content: 'hello there' }],
      stream: true,
      model: 'gpt-4o-mini',
      group: 'default',
      max_tokens: 0,
      temperature: 0,
    });
    expect(plays[0]?.headers.get('New-Api-User')).toBe('5');
    expect(screen.getByText('hello there')).toBeTruthy();
    expect(await screen.findByText('Thinking…')).toBeTruthy();
    // The input is emptied and the send button is now a stop button.
    expect((screen.getByLabelText('Message') as HTMLTextAreaElement).value).toBe('');
    expect(screen.getByRole('button', { name: /Stop/ })).toBeTruthy();

    stream?.write(piece('You said: '));
    stream?.write(piece('**hello** there'));
    const answer = () => answers()[0] as HTMLElement;
    await waitFor(() => expect(answer().textContent).toContain('You said: hello there'));
    expect(within(answer()).getByText('Writing…')).toBeTruthy();

    stream?.write('data: [DONE]\n\n');
    await waitFor(() => expect(within(answer()).queryByText('Writing…')).toBeNull());
    // Markdown is rendered: the bold word is a <strong>.
    expect(answer().querySelector('strong')?.textContent).toBe('hello');
    expect(screen.getByRole('button', { name: /Send/ })).toBeTruthy();
  });

  it('shows the reason when the server refuses the request', async () => {
    serve(() => ({
      status: 503,
      json: { error: { message: 'no channel is available for this model', type: 'sluice_error' } },
    }));
    renderPage(<PlaygroundPage />, { path: '/playground' });
    await ask('hi');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The answer failed');
    expect(alert.textContent).toContain('no channel is available for this model');
  });

  it('shows an error event from inside the stream, and a stream cut short', async () => {
    const streams: Stream[] = [];
    serve((s) => {
      streams.push(s);
    });
    renderPage(<PlaygroundPage />, { path: '/playground' });
    await ask('first');
    await waitFor(() => expect(streams).toHaveLength(1));
    streams[0]?.write(piece('partial'));
    streams[0]?.write(`data: ${JSON.stringify({ error: { message: 'upstream stream interrupted' } })}\n\n`);
    expect((await screen.findByRole('alert')).textContent).toContain('upstream stream interrupted');
    expect(answers()[0]?.textContent).toContain('partial');

    await ask('second');
    await waitFor(() => expect(streams).toHaveLength(2));
    streams[1]?.write(piece('half'));
    streams[1]?.end();
    await waitFor(() =>
      expect(answers()[1]?.textContent).toContain('the connection closed before the answer was complete'),
    );
  });

  it('stop ends the answer, keeps what arrived and marks it stopped', async () => {
    let stream: Stream | undefined;
    const plays = serve((s) => {
      stream = s;
    });
    renderPage(<PlaygroundPage />, { path: '/playground' });
    await ask('tell me a story');
    await waitFor(() => expect(stream).toBeDefined());
    stream?.write(piece('Once upon'));
    await waitFor(() => expect(answers()[0]?.textContent).toContain('Once upon'));
    fireEvent.click(screen.getByRole('button', { name: /Stop/ }));
    await waitFor(() => expect(within(answers()[0] as HTMLElement).getByText('Stopped')).toBeTruthy());
    expect(plays[0]?.signal?.aborted).toBe(true);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('clear context empties the conversation and the next question goes without it', async () => {
    const streams: Stream[] = [];
    const plays = serve((s) => {
      streams.push(s);
    });
    renderPage(<PlaygroundPage />, { path: '/playground' });
    await ask('remember me');
    await waitFor(() => expect(streams).toHaveLength(1));
    streams[0]?.write(piece('ok'));
    streams[0]?.write('data: [DONE]\n\n');
    await waitFor(() => expect(screen.getByRole('button', { name: /Send/ })).toBeTruthy());

    fireEvent.click(screen.getByRole('button', { name: 'Clear context' }));
    await waitFor(() => expect(screen.queryByText('remember me')).toBeNull());
    expect(screen.getByText('Send a message to start the conversation.')).toBeTruthy();

    await ask('fresh start');
    await waitFor(() => expect(plays).toHaveLength(2));
    expect(plays[1]?.body.messages).toEqual([{ role: 'user', content: 'fresh start' }]);
  });

  it('a session that expired sends the user to log in again', async () => {
    serve(() => ({ status: 401, json: { error: { message: 'not logged in, please log in first' } } }));
    renderPage(<PlaygroundPage />, { path: '/playground' });
    await ask('hi');
    expect(await screen.findByText('elsewhere')).toBeTruthy();
    expect(getUser()).toBeNull();
  });

  it('tells the user to log in again when sent here with expired=true', async () => {
    serve(() => undefined);
    renderPage(<PlaygroundPage />, { path: '/playground', url: '/playground?expired=true' });
    expect((await screen.findByRole('alert')).textContent).toContain(
      'not logged in or login expired, please log in again',
    );
  });
});
