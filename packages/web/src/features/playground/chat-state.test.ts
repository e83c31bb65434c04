// The playground conversation's states: loading → incomplete → complete or error, stop and clear,
// and what is sent as context.
import { describe, expect, it } from 'vitest';
import { buildRequest, chatReducer, initialChatState, pendingAnswer } from './chat-state';
import type { ChatAction, ChatState, PlaygroundSettings } from './chat-state';

const run = (actions: ChatAction[], from: ChatState = initialChatState): ChatState =>
  actions.reduce(chatReducer, from);

const settings: PlaygroundSettings = {
  group: 'default',
  model: 'gpt-4o-mini',
  temperature: 0,
  maxTokens: 0,
  systemPrompt: '',
};

describe('message states', () => {
  it('a question adds the user message and an answer that is loading', () => {
    const state = run([{ type: 'send', text: 'hello' }]);
    expect(state.messages).toEqual([
      { id: 1, role: 'user', content: 'hello', status: 'complete' },
      { id: 2, role: 'assistant', content: '', status: 'loading' },
    ]);
    expect(pendingAnswer(state)?.id).toBe(2);
  });

  it('the answer is incomplete while pieces arrive and complete when done', () => {
    const streaming = run([
      { type: 'send', text: 'hello' },
      { type: 'delta', id: 2, text: 'You said' },
      { type: 'delta', id: 2, text: ': hello' },
    ]);
    expect(streaming.messages[1]).toMatchObject({ content: 'You said: hello', status: 'incomplete' });
    const done = chatReducer(streaming, { type: 'done', id: 2 });
    expect(done.messages[1]).toMatchObject({ content: 'You said: hello', status: 'complete' });
    expect(pendingAnswer(done)).toBeUndefined();
  });

  it('a failure keeps what arrived and records the reason', () => {
    const state = run([
      { type: 'send', text: 'hello' },
      { type: 'delta', id: 2, text: 'part' },
      { type: 'error', id: 2, message: 'upstream went away' },
    ]);
    expect(state.messages[1]).toMatchObject({
      content: 'part',
      status: 'error',
      error: 'upstream went away',
    });
  });

  it('stopping completes the answer with what arrived and marks it stopped', () => {
    const state = run([
      { type: 'send', text: 'hello' },
      { type: 'delta', id: 2, text: 'part' },
      { type: 'stop', id: 2 },
    ]);
    expect(state.messages[1]).toMatchObject({ content: 'part', status: 'complete', stopped: true });
  });

  it('refuses a new question while an answer is running, and an empty one', () => {
    const running = run([{ type: 'send', text: 'one' }]);
    expect(chatReducer(running, { type: 'send', text: 'two' })).toBe(running);
    expect(chatReducer(initialChatState, { type: 'send', text: '   ' })).toBe(initialChatState);
  });

  it('clearing empties the conversation and late events of the old answer change nothing', () => {
    const cleared = run([{ type: 'send', text: 'one' }, { type: 'clear' }]);
    expect(cleared.messages).toEqual([]);
    const next = run([{ type: 'send', text: 'two' }], cleared);
    const answerId = pendingAnswer(next)?.id;
    expect(answerId).not.toBe(2);
    // The cleared answer (id 2) was aborted; its stop arrives after the new question.
    const late = run(
      [
        { type: 'stop', id: 2 },
        { type: 'delta', id: 2, text: 'stale' },
      ],
      next,
    );
    expect(late).toBe(next);
  });
});

describe('the request', () => {
  it('sends the system prompt, the finished conversation and the settings', () => {
    const state = run([
      { type: 'send', text: 'first' },
      { type: 'delta', id: 2, text: 'answer one' },
      { type: 'done', id: 2 },
      { type: 'send', text: 'second' },
    ]);
    expect(
      buildRequest(state, { ...settings, systemPrompt: 'Be brief.', temperature: 0.3, maxTokens: 100 }),
    ).toEqual({
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'first' },
        { role: 'assistant', content: 'answer one' },
        { role: 'user', content: 'second' },
      ],
      stream: true,
      model: 'gpt-4o-mini',
      group: 'default',
      max_tokens: 100,
      temperature: 0.3,
    });
  });

  it('leaves out failed exchanges and sends no system message when there is no prompt', () => {
    const state = run([
      { type: 'send', text: 'broken' },
      { type: 'error', id: 2, message: 'no channel' },
      { type: 'send', text: 'again' },
    ]);
    expect(buildRequest(state, settings).messages).toEqual([{ role: 'user', content: 'again' }]);
  });
});
