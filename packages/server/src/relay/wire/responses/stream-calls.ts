// Tool calls in a Responses stream for a client: a call's item, a function call (in its namespace) or
// a custom tool call, and the events that close it. A custom tool's input is the text inside the
// model's JSON arguments, so it is held until the call is complete and then told as one
// custom_tool_call_input delta and its done event.
import { customToolCallItem, functionCallItem } from './shared.js';
import type { Json } from './shared.js';
import { freeformInput } from './tool-names.js';

export type ItemStatus = 'completed' | 'incomplete';

/** An output item still being written. One shape for all four kinds. */
export interface OpenItem {
  kind: 'message' | 'reasoning' | 'function_call' | 'custom_tool_call';
  outputIndex: number;
  id: string;
  /** Message text, reasoning text or call arguments so far. */
  text: string;
  /** The message's content part or the reasoning item's summary part has been announced. */
  partOpen: boolean;
  signature: string | undefined;
  /** A reasoning item that got its signature: more thinking is a new item. */
  sealed: boolean;
  callId: string;
  /** The tool's name and namespace as the client knows them. */
  name: string;
  namespace: string | undefined;
}

export const frame = (event: { type: string; sequence_number: number } & Json): string =>
  `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;

/** The call's item; a custom tool's input is the text inside its JSON arguments. */
export function callItem(item: OpenItem, status: string): Json {
  return item.kind === 'custom_tool_call'
    ? customToolCallItem(item.id, status, item.callId, item.name, item.namespace, freeformInput(item.text))
    : functionCallItem(item.id, status, item.callId, item.name, item.namespace, item.text);
}

/**
 * The events that end a call before its item's done event: the arguments of a function call, or a
 * custom tool's whole input as one delta and its done event. `next` gives the next sequence number.
 */
export function closeCall(item: OpenItem, next: () => number): string {
  if (item.kind !== 'custom_tool_call') {
    return frame({
      type: 'response.function_call_arguments.done',
      sequence_number: next(),
      item_id: item.id,
      output_index: item.outputIndex,
      name: item.name,
      arguments: item.text,
    });
  }
  const input = freeformInput(item.text);
  const delta =
    input === ''
      ? ''
      : frame({
          type: 'response.custom_tool_call_input.delta',
          sequence_number: next(),
          item_id: item.id,
          output_index: item.outputIndex,
          delta: input,
        });
  return (
    delta +
    frame({
      type: 'response.custom_tool_call_input.done',
      sequence_number: next(),
      item_id: item.id,
      output_index: item.outputIndex,
      input,
    })
  );
}
