import { readFileSync } from 'node:fs';
import { accumulateResponse } from 'openai/lib/responses/ResponseAccumulator';
import type { Response, ResponseStreamEvent } from 'openai/resources/responses/responses';
import { describe, expect, it } from 'vitest';
import type { ChatAnswer, ChatDelta, ChatMessage, ChatTool } from '../../ir/chat.js';
import { RelayError } from '../../ir/errors.js';
import { responsesCodec } from './index.js';

const codexRequest = JSON.parse(
  readFileSync(new URL('./fixtures/request-codex-tools.json', import.meta.url), 'utf8'),
) as Record<string, unknown>;

/** The 400 a client gets for `body`. */
function refusal(body: Record<string, unknown>): RelayError {
  try {
    responsesCodec.decodeRequest(body);
  } catch (error) {
    if (error instanceof RelayError) return error;
    throw error;
  }
  throw new Error('the request was accepted');
}

const freeform = {
  type: 'object',
  properties: {
    input: { type: 'string', description: 'The whole input for the tool, as plain text (not JSON).' },
  },
  required: ['input'],
};

describe('the tools of a Codex request, for a model of another vendor', () => {
  const request = responsesCodec.decodeRequest(codexRequest);

  it('offers function, namespace and custom tools as function tools, and leaves hosted tools out', () => {
    expect(request.tools).toEqual<ChatTool[]>([
      {
        name: 'exec_command',
        description: 'Runs a command in a PTY.',
        parameters: {
          type: 'object',
          properties: { cmd: { type: 'string' } },
          required: ['cmd'],
          additionalProperties: false,
        },
      },
      {
        name: 'multi_agent_v1--spawn_agent',
        description: 'Tools for spawning and managing sub-agents.\n\nSpawns an agent to work on a task.',
        parameters: {
          type: 'object',
          properties: { message: { type: 'string' } },
          required: ['message'],
        },
      },
      {
        name: 'multi_agent_v1--wait_agent',
        description: 'Tools for spawning and managing sub-agents.',
        parameters: { type: 'object', properties: {} },
      },
      {
        name: 'mcp__notes--read_note',
        description: 'Read the note',
        parameters: { type: 'object', properties: { id: { type: 'string' } } },
      },
      {
        name: 'apply_patch--freeform',
        description:
          'Edit files with a patch.\n\nThe input must follow this lark grammar:\nstart: begin_patch hunk+ end_patch',
        parameters: freeform,
      },
      { name: 'scratchpad--freeform', description: undefined, parameters: freeform },
      // From the additional_tools item; its exec_command repeats the request's and is offered once.
      {
        name: 'functions--exec--freeform',
        description: 'Run JavaScript code to orchestrate tool calls.',
        parameters: freeform,
      },
      {
        name: 'functions--wait',
        description: 'Waits on a yielded exec cell.',
        parameters: { type: 'object', properties: { cell_id: { type: 'string' } }, required: ['cell_id'] },
      },
    ]);
    expect(request.toolChoice).toEqual({ type: 'auto' });
    expect(request.parallelToolCalls).toBe(true);
  });

  it('reads namespaced and custom tool calls of the history under the same names', () => {
    expect(request.system).toEqual([
      { type: 'text', text: 'You are a coding agent running in the Codex CLI.' },
    ]);
    expect(request.messages).toEqual<ChatMessage[]>([
      { role: 'user', parts: [{ type: 'text', text: 'What does the note say?' }] },
      {
        role: 'assistant',
        parts: [
          { type: 'reasoning', text: '', signature: 'EqQBCkYIBxgCKkA=' },
          {
            type: 'tool_call',
            id: 'toolu_spawn',
            name: 'multi_agent_v1--spawn_agent',
            arguments: '{"message":"read note.txt"}',
          },
        ],
      },
      {
        role: 'tool',
        parts: [
          {
            type: 'tool_result',
            toolCallId: 'toolu_spawn',
            name: 'multi_agent_v1--spawn_agent',
            content: [{ type: 'text', text: '{"agent_id":"agent_1"}' }],
          },
        ],
      },
      {
        role: 'assistant',
        parts: [
          {
            type: 'tool_call',
            id: 'toolu_exec',
            name: 'functions--exec--freeform',
            arguments: JSON.stringify({ input: "text(await tools.exec_command({ cmd: 'cat note.txt' }))" }),
          },
        ],
      },
      {
        role: 'tool',
        parts: [
          {
            type: 'tool_result',
            toolCallId: 'toolu_exec',
            name: 'functions--exec--freeform',
            content: [
              { type: 'text', text: 'Script completed' },
              { type: 'text', text: 'The relay note says hello.' },
            ],
          },
        ],
      },
      // The web search record is left out; the answer that used it is kept.
      { role: 'assistant', parts: [{ type: 'text', text: 'The note says hello.' }] },
      { role: 'user', parts: [{ type: 'text', text: 'Patch it to say goodbye.' }] },
    ]);
  });

  it('holds the model to a custom tool chosen by name, wherever it is', () => {
    const choice = (value: unknown) =>
      responsesCodec.decodeRequest({ ...codexRequest, tool_choice: value }).toolChoice;
    expect(choice({ type: 'custom', name: 'apply_patch' })).toEqual({
      type: 'tool',
      name: 'apply_patch--freeform',
    });
    expect(choice({ type: 'custom', name: 'exec' })).toEqual({
      type: 'tool',
      name: 'functions--exec--freeform',
    });
    expect(refusal({ ...codexRequest, tool_choice: { type: 'custom', name: 'nope' } }).message).toBe(
      'tool_choice: names the custom tool nope, which is not among the tools',
    );
  });

  it('still refuses to force a hosted tool, which the model cannot call', () => {
    const error = refusal({ ...codexRequest, tool_choice: { type: 'web_search_preview' } });
    expect(error.status).toBe(400);
    expect(error.message).toContain('a tool_choice of type web_search_preview is not supported');
    const onlyHosted = { model: 'm', input: 'hi', tools: [{ type: 'web_search' }] };
    expect(responsesCodec.decodeRequest({ ...onlyHosted, tool_choice: 'auto' })).toMatchObject({
      tools: [],
      toolChoice: undefined,
    });
    expect(refusal({ ...onlyHosted, tool_choice: 'required' }).message).toBe(
      "tool_choice: is required, but another vendor's model has no tool to call: hosted tools run only at OpenAI",
    );
  });

  it('refuses a tool whose name would read back as another tool, and a namespace holding a hosted tool', () => {
    expect(
      refusal({ model: 'm', input: 'hi', tools: [{ type: 'function', name: 'read--file' }] }).message,
    ).toBe(
      "tools.0: the tool read--file cannot be relayed to another vendor's model: it would be named read--file, which reads back as another tool (a namespace's tools are named <namespace>--<name>, free-text tools <name>--freeform)",
    );
    const freeformFunction = { type: 'function', name: 'freeform' };
    expect(
      refusal({
        model: 'm',
        input: 'hi',
        tools: [{ type: 'namespace', name: 'notes', description: '', tools: [freeformFunction] }],
      }).message,
    ).toContain('tools.0.tools.0: the tool notes.freeform cannot be relayed');
    expect(
      refusal({
        model: 'm',
        input: 'hi',
        tools: [{ type: 'namespace', name: 'web', description: '', tools: [{ type: 'web_search' }] }],
      }).message,
    ).toBe('tools.0.tools.0: a namespace can hold only function and custom tools');
    expect(refusal({ model: 'm', input: [{ type: 'additional_tools', role: 'developer' }] }).message).toBe(
      'input.0.tools: tools must be a list',
    );
  });
});

const identity = { id: 'resp_t1', model: 'claude-sonnet-4-5', created: 1_760_000_000 };

describe('tool calls for a Responses client', () => {
  const answer: ChatAnswer = {
    id: 'msg_upstream',
    model: 'claude-sonnet-4-5',
    parts: [
      {
        type: 'tool_call',
        id: 'toolu_1',
        name: 'multi_agent_v1--spawn_agent',
        arguments: '{"message":"read note.txt"}',
      },
      { type: 'tool_call', id: 'toolu_2', name: 'exec_command', arguments: '{"cmd":"ls"}' },
      {
        type: 'tool_call',
        id: 'toolu_3',
        name: 'functions--exec--freeform',
        arguments: '{"input":"text(1 + 1)"}',
      },
      // A model that ignores the schema still reaches the tool with its text.
      { type: 'tool_call', id: 'toolu_4', name: 'apply_patch--freeform', arguments: '*** Begin Patch' },
    ],
    finishReason: 'tool_calls',
  };

  it('gives each call back as the client named its tool: in its namespace, or as a custom tool call', () => {
    expect(responsesCodec.encodeAnswer(answer, identity).output).toEqual([
      {
        id: 'fc_t1_0',
        type: 'function_call',
        status: 'completed',
        arguments: '{"message":"read note.txt"}',
        call_id: 'toolu_1',
        name: 'spawn_agent',
        namespace: 'multi_agent_v1',
      },
      {
        id: 'fc_t1_1',
        type: 'function_call',
        status: 'completed',
        arguments: '{"cmd":"ls"}',
        call_id: 'toolu_2',
        name: 'exec_command',
      },
      {
        id: 'ctc_t1_2',
        type: 'custom_tool_call',
        status: 'completed',
        call_id: 'toolu_3',
        name: 'exec',
        namespace: 'functions',
        input: 'text(1 + 1)',
      },
      {
        id: 'ctc_t1_3',
        type: 'custom_tool_call',
        status: 'completed',
        call_id: 'toolu_4',
        name: 'apply_patch',
        input: '*** Begin Patch',
      },
    ]);
  });

  it('comes back in the next request under the names the model was given', () => {
    const output = responsesCodec.encodeAnswer(answer, identity).output as unknown[];
    const again = responsesCodec.decodeRequest({ model: 'm', input: output });
    expect(again.messages).toEqual([
      {
        role: 'assistant',
        parts: answer.parts.map((p) =>
          p.type === 'tool_call' && p.id === 'toolu_4'
            ? { ...p, arguments: JSON.stringify({ input: '*** Begin Patch' }) }
            : p,
        ),
      },
    ]);
  });

  const steps: ChatDelta[][] = [
    [{ type: 'tool_call', index: 0, id: 'toolu_1', name: 'multi_agent_v1--wait_agent', arguments: '' }],
    [{ type: 'tool_call', index: 0, arguments: '{"targets":["a1"]}' }],
    [{ type: 'tool_call', index: 1, id: 'toolu_2', name: 'functions--exec--freeform', arguments: '{"inp' }],
    [{ type: 'tool_call', index: 1, arguments: 'ut":"text(\\"hi\\")"}' }],
    [{ type: 'finish', reason: 'tool_calls' }],
  ];
  const stream = (): { name: string; data: Record<string, unknown> }[] => {
    const encoder = responsesCodec.createStreamEncoder(identity, { includeUsage: false });
    const text =
      steps.map((s) => encoder.push(s)).join('') +
      encoder.end({ promptTokens: 10, completionTokens: 5, cachedTokens: 0 });
    return text
      .split('\n\n')
      .filter((block) => block !== '')
      .map((block) => {
        const [event, data] = block.split('\n');
        return { name: event!.slice(7), data: JSON.parse(data!.slice(6)) as Record<string, unknown> };
      });
  };

  it('streams a custom tool call as the SDK expects, its input whole once the call is complete', () => {
    const events = stream();
    expect(events.map((e) => e.name)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.output_item.added',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.custom_tool_call_input.delta',
      'response.custom_tool_call_input.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events[2]!.data.item).toEqual({
      id: 'fc_t1_0',
      type: 'function_call',
      status: 'in_progress',
      arguments: '',
      call_id: 'toolu_1',
      name: 'wait_agent',
      namespace: 'multi_agent_v1',
    });
    expect(events[4]!.data.item).toEqual({
      id: 'ctc_t1_1',
      type: 'custom_tool_call',
      status: 'in_progress',
      call_id: 'toolu_2',
      name: 'exec',
      namespace: 'functions',
      input: '',
    });
    expect(events[8]!.data).toMatchObject({ item_id: 'ctc_t1_1', output_index: 1, input: 'text("hi")' });

    let snapshot: Response | undefined;
    for (const event of events.slice(0, -1)) {
      snapshot = accumulateResponse(event.data as unknown as ResponseStreamEvent, snapshot);
    }
    const completed = events[events.length - 1]!.data.response as Response;
    expect(snapshot!.output).toEqual(completed.output);
    expect(completed.output).toMatchObject([
      {
        type: 'function_call',
        name: 'wait_agent',
        namespace: 'multi_agent_v1',
        arguments: '{"targets":["a1"]}',
      },
      { type: 'custom_tool_call', name: 'exec', namespace: 'functions', input: 'text("hi")' },
    ]);
  });
});
