// How the Responses API's tools that no other vendor has travel as plain function tools: a namespace's
// tools are named `<namespace>--<name>`, and a custom (free-text input) tool gets `--freeform` after
// its name and one string parameter, `input`. The names say what the tools were, so an answer's tool
// calls go back to the client as its own items (function_call with its namespace, custom_tool_call)
// with nothing but the name at hand: the answer encoders never see the request.
import { isRecord } from '../json.js';
import type { Json } from '../json.js';

/** A tool as the client knows it. */
export interface ClientTool {
  kind: 'function' | 'custom';
  name: string;
  namespace: string | undefined;
}

/**
 * `--` joins a namespace and a name: letters, digits, `_` and `-` are all every vendor allows in a
 * tool name, and `__` is taken (MCP tools are named `mcp__<server>__<tool>`); a double hyphen is in
 * no tool name anyone uses.
 */
const SEPARATOR = '--';
const FREEFORM = 'freeform';

/** The name a client's tool has in the neutral request. */
export function flatToolName(tool: ClientTool): string {
  const base = tool.namespace === undefined ? tool.name : `${tool.namespace}${SEPARATOR}${tool.name}`;
  return tool.kind === 'custom' ? `${base}${SEPARATOR}${FREEFORM}` : base;
}

/** The client's tool a neutral name stands for: a plain function unless the name says otherwise. */
export function clientTool(flat: string): ClientTool {
  const parts = flat.split(SEPARATOR);
  if (parts.some((p) => p === '')) return { kind: 'function', name: flat, namespace: undefined };
  if (parts.length === 3 && parts[2] === FREEFORM) {
    return { kind: 'custom', name: parts[1]!, namespace: parts[0] };
  }
  if (parts.length === 2 && parts[1] === FREEFORM) {
    return { kind: 'custom', name: parts[0]!, namespace: undefined };
  }
  if (parts.length === 2) return { kind: 'function', name: parts[1]!, namespace: parts[0] };
  return { kind: 'function', name: flat, namespace: undefined };
}

/** Whether a tool's neutral name reads back as the tool itself (a name with `--` in it may not). */
export function readsBack(tool: ClientTool): boolean {
  const back = clientTool(flatToolName(tool));
  return back.kind === tool.kind && back.name === tool.name && back.namespace === tool.namespace;
}

/** The JSON Schema of a custom tool as a function: its free text in one string. */
export const FREEFORM_PARAMETERS: Json = {
  type: 'object',
  properties: {
    input: { type: 'string', description: 'The whole input for the tool, as plain text (not JSON).' },
  },
  required: ['input'],
};

/** A custom tool call's text as function arguments. */
export const freeformArguments = (input: string): string => JSON.stringify({ input });

/**
 * The text a model gave a custom tool, from its function arguments: the `input` string, or the raw
 * arguments when the model did not follow the schema (a free-text tool takes any text).
 */
export function freeformInput(args: string): string {
  try {
    const parsed: unknown = JSON.parse(args);
    if (isRecord(parsed) && typeof parsed.input === 'string') return parsed.input;
    if (typeof parsed === 'string') return parsed;
  } catch {
    // not JSON: the text itself
  }
  return args;
}
