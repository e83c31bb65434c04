import { describe, expect, it } from 'vitest';
import type { ChatDelta } from './chat.js';
import { joinDeltas } from './chat.js';

describe('joinDeltas', () => {
  it('joins the steps that continue each other and keeps every boundary a client can see', () => {
    const steps: ChatDelta[] = [
      { type: 'reasoning', text: 'Think' },
      { type: 'reasoning', text: 'ing.', signature: 'sig' },
      // A signed thinking block is closed: the next reasoning starts another.
      { type: 'reasoning', text: 'More.' },
      { type: 'reasoning', text: '', redacted: 'opaque' },
      { type: 'text', text: 'Hel' },
      { type: 'text', text: 'lo' },
      { type: 'tool_call', index: 0, id: 'call_1', name: 'f', arguments: '' },
      { type: 'tool_call', index: 0, arguments: '{"a":' },
      { type: 'tool_call', index: 0, arguments: '1}' },
      { type: 'tool_call', index: 1, id: 'call_2', name: 'g', arguments: '{}' },
      { type: 'text', text: 'after' },
      { type: 'finish', reason: 'tool_calls' },
    ];
    expect(joinDeltas(steps)).toEqual([
      { type: 'reasoning', text: 'Thinking.', signature: 'sig' },
      { type: 'reasoning', text: 'More.' },
      { type: 'reasoning', text: '', redacted: 'opaque' },
      { type: 'text', text: 'Hello' },
      { type: 'tool_call', index: 0, id: 'call_1', name: 'f', arguments: '{"a":1}' },
      { type: 'tool_call', index: 1, id: 'call_2', name: 'g', arguments: '{}' },
      { type: 'text', text: 'after' },
      { type: 'finish', reason: 'tool_calls' },
    ]);
  });
});
