// A Responses request's tools (its `tools` and the `additional_tools` input items) and tool_choice as
// neutral function tools. Function tools pass as they are; a namespace's tools and custom (free-text)
// tools become function tools named as tool-names.ts says. Hosted tools (web_search, file_search,
// code_interpreter, image_generation, computer_use_preview, mcp, local_shell, shell, apply_patch,
// tool_search, …) run inside OpenAI or take OpenAI's own item formats: another vendor's model cannot
// use them, so they are left out and the call goes on without them (Codex sends web_search by default).
import { z } from 'zod';
import type { ChatTool, ChatToolChoice } from '../../ir/chat.js';
import type { ToolList } from './input-decode.js';
import { badRequest, isRecord, parseAt, str } from './shared.js';
import { clientTool, FREEFORM_PARAMETERS, flatToolName, readsBack } from './tool-names.js';
import type { ClientTool } from './tool-names.js';

const description = z.string({ error: 'description must be a string' }).nullish();

const functionTool = z.looseObject({
  name: z.string({ error: 'name is required' }).min(1, { error: 'name is required' }),
  description,
  parameters: z
    .record(z.string(), z.unknown(), { error: 'parameters must be a JSON Schema object' })
    .nullish(),
});

const customTool = z.looseObject({
  name: z.string({ error: 'name is required' }).min(1, { error: 'name is required' }),
  description,
  format: z
    .looseObject({
      type: z.enum(['text', 'grammar'], { error: 'format.type must be text or grammar' }),
      syntax: z.string().nullish(),
      definition: z.string().nullish(),
    })
    .nullish(),
});

const namespaceTool = z.looseObject({
  name: z.string({ error: 'name is required' }).min(1, { error: 'name is required' }),
  description,
  tools: z.array(z.unknown(), { error: 'tools must be a list' }),
});

const joined = (...texts: (string | null | undefined)[]): string | undefined => {
  const present = texts.filter((t): t is string => typeof t === 'string' && t !== '');
  return present.length === 0 ? undefined : present.join('\n\n');
};

/** A function or custom tool, inside a namespace or not, as a neutral function tool. */
function callable(
  value: unknown,
  path: string,
  namespace: z.output<typeof namespaceTool> | undefined,
): ChatTool {
  const type = isRecord(value) ? value.type : undefined;
  let client: ClientTool;
  let tool: ChatTool;
  if (type === 'function') {
    const fn = parseAt(functionTool, value, path);
    client = { kind: 'function', name: fn.name, namespace: namespace?.name };
    tool = {
      name: flatToolName(client),
      description: joined(namespace?.description, fn.description),
      parameters: fn.parameters ?? { type: 'object', properties: {} },
    };
  } else if (type === 'custom') {
    const custom = parseAt(customTool, value, path);
    client = { kind: 'custom', name: custom.name, namespace: namespace?.name };
    // Other vendors cannot hold a model to a grammar; the model is told it instead.
    const format = custom.format;
    const rule =
      format?.type === 'grammar' && format.definition
        ? `The input must follow this ${format.syntax ? `${format.syntax} ` : ''}grammar:\n${format.definition}`
        : undefined;
    tool = {
      name: flatToolName(client),
      description: joined(namespace?.description, custom.description, rule),
      parameters: FREEFORM_PARAMETERS,
    };
  } else {
    throw badRequest(path, 'a namespace can hold only function and custom tools', 'unsupported_value');
  }
  if (!readsBack(client)) {
    const label = client.namespace === undefined ? client.name : `${client.namespace}.${client.name}`;
    throw badRequest(
      path,
      `the tool ${label} cannot be relayed to another vendor's model: it would be named ${tool.name}, which reads back as another tool (a namespace's tools are named <namespace>--<name>, free-text tools <name>--freeform)`,
      'unsupported_value',
    );
  }
  return tool;
}

/** Every tool the model can call, in order, each name once (additional_tools may repeat a tool). */
export function decodeTools(lists: readonly ToolList[]): ChatTool[] {
  const tools = new Map<string, ChatTool>();
  const add = (tool: ChatTool): void => {
    if (!tools.has(tool.name)) tools.set(tool.name, tool);
  };
  for (const list of lists) {
    list.tools.forEach((value, i) => {
      const path = `${list.path}.${i}`;
      const type = isRecord(value) ? str(value.type) : undefined;
      if (type === undefined) throw badRequest(path, 'a tool must be an object with a type');
      if (type === 'function' || type === 'custom') add(callable(value, path, undefined));
      else if (type === 'namespace') {
        const namespace = parseAt(namespaceTool, value, path);
        namespace.tools.forEach((inner, j) => add(callable(inner, `${path}.tools.${j}`, namespace)));
      }
      // Any other type is a hosted tool: left out (see the header).
    });
  }
  return [...tools.values()];
}

/**
 * tool_choice; a custom tool is found among the request's tools by its name. When every tool the
 * client offered was hosted (`hostedOnly`), auto and none mean nothing and are dropped, as vendors
 * refuse a choice without tools, and required cannot be met.
 */
export function decodeToolChoice(
  value: unknown,
  tools: readonly ChatTool[],
  hostedOnly: boolean,
): ChatToolChoice | undefined {
  if (value === undefined || value === null) return undefined;
  if (value === 'required' && hostedOnly) {
    throw badRequest(
      'tool_choice',
      "is required, but another vendor's model has no tool to call: hosted tools run only at OpenAI",
      'unsupported_value',
    );
  }
  if (value === 'auto' || value === 'none' || value === 'required') {
    return hostedOnly ? undefined : { type: value };
  }
  const kind = isRecord(value) ? str(value.type) : undefined;
  const name = isRecord(value) ? str(value.name) : undefined;
  if (kind === 'function' && name) return { type: 'tool', name };
  if (kind === 'custom' && name) {
    const tool = tools.find((t) => {
      const client = clientTool(t.name);
      return client.kind === 'custom' && client.name === name;
    });
    if (tool) return { type: 'tool', name: tool.name };
    throw badRequest('tool_choice', `names the custom tool ${name}, which is not among the tools`);
  }
  throw badRequest(
    'tool_choice',
    kind === undefined
      ? 'must be auto, none, required, {"type":"function","name":…} or {"type":"custom","name":…}'
      : `a tool_choice of type ${kind} is not supported: another vendor's model can be held only to a function or custom tool`,
    'unsupported_value',
  );
}
