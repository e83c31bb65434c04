// A client's generateContent request (@google/genai, Gemini CLI) → ChatRequest. Server-side tools
// (googleSearch, codeExecution, …), their history and safety settings are dropped: no other vendor
// runs them.
import { z } from 'zod';
import type {
  ChatMessage,
  ChatPart,
  ChatReasoningConfig,
  ChatRequest,
  ChatResponseFormat,
  ChatText,
  ChatTool,
  ChatToolChoice,
  ChatToolResult,
  ReasoningEffort,
} from '../../ir/chat.js';
import { RelayError } from '../../ir/errors.js';
import { jsonSchemaFromGemini } from './schema.js';
import { audioFormatOf, documentMimeOf, knownMimeOf } from './shared.js';

const json = z.record(z.string(), z.unknown());

const partSchema = z.looseObject({
  text: z.string().nullish(),
  thought: z.boolean().nullish(),
  thoughtSignature: z.string().nullish(),
  inlineData: z.looseObject({ mimeType: z.string(), data: z.string() }).nullish(),
  fileData: z.looseObject({ mimeType: z.string().nullish(), fileUri: z.string() }).nullish(),
  functionCall: z.looseObject({ name: z.string(), args: json.nullish(), id: z.string().nullish() }).nullish(),
  functionResponse: z
    .looseObject({ name: z.string(), response: z.unknown(), id: z.string().nullish() })
    .nullish(),
});
type GeminiPart = z.output<typeof partSchema>;

const contentSchema = z.looseObject({
  role: z.string().nullish(),
  parts: z.array(partSchema, { error: 'parts must be an array of Part objects' }),
});

const requestSchema = z.looseObject({
  contents: z
    .array(contentSchema, { error: 'contents must be a non-empty array of Content objects' })
    .min(1, { error: 'contents must be a non-empty array of Content objects' }),
  systemInstruction: z.union([z.string(), z.looseObject({ parts: z.array(partSchema) })]).nullish(),
  tools: z
    .array(
      z.looseObject({
        functionDeclarations: z
          .array(
            z.looseObject({
              name: z.string({ error: 'every function declaration needs a name' }),
              description: z.string().nullish(),
              parameters: json.nullish(),
              parametersJsonSchema: json.nullish(),
            }),
          )
          .nullish(),
      }),
    )
    .nullish(),
  toolConfig: z
    .looseObject({
      functionCallingConfig: z
        .looseObject({ mode: z.string().nullish(), allowedFunctionNames: z.array(z.string()).nullish() })
        .nullish(),
    })
    .nullish(),
  generationConfig: z
    .looseObject({
      temperature: z.number().nullish(),
      topP: z.number().nullish(),
      topK: z.number().nullish(),
      maxOutputTokens: z.number().int().min(0, { error: 'maxOutputTokens must not be negative' }).nullish(),
      stopSequences: z.array(z.string()).nullish(),
      presencePenalty: z.number().nullish(),
      frequencyPenalty: z.number().nullish(),
      seed: z.number().int().nullish(),
      responseMimeType: z.string().nullish(),
      responseSchema: json.nullish(),
      responseJsonSchema: json.nullish(),
      thinkingConfig: z
        .looseObject({
          thinkingBudget: z.number().int().nullish(),
          includeThoughts: z.boolean().nullish(),
          thinkingLevel: z.string().nullish(),
        })
        .nullish(),
    })
    .nullish(),
});
type GeminiRequest = z.output<typeof requestSchema>;

function parseRequest(body: unknown): GeminiRequest {
  const result = requestSchema.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = (issue?.path ?? []).map(String).join('.');
  const message = issue?.message ?? 'invalid request';
  throw new RelayError(
    400,
    field !== '' && !message.startsWith(field) ? `${field}: ${message}` : message,
    'invalid_request',
  );
}

const unconvertible = (path: string, what: string): RelayError =>
  new RelayError(400, `${path}: ${what} cannot be sent to this model's upstream`, 'invalid_request');

/**
 * Ids for function calls and their responses. Gemini may leave both without an id and pairs them by
 * name and order; the IR needs an id on each, so a call gets `call_<n>` (n counts the request's calls)
 * and a response takes the id of the oldest unanswered call of its name.
 */
class CallIds {
  private count = 0;
  private readonly open: { id: string; name: string }[] = [];

  forCall(name: string, id: string | null | undefined): string {
    const callId = id || `call_${this.count}`;
    this.count += 1;
    this.open.push({ id: callId, name });
    return callId;
  }

  forResponse(name: string, id: string | null | undefined): string {
    const at = this.open.findIndex((call) => (id ? call.id === id : call.name === name));
    const match = at === -1 ? undefined : this.open.splice(at, 1)[0];
    return id || match?.id || `call_${this.count++}`;
  }
}

function mediaPart(part: GeminiPart, path: string): ChatPart | undefined {
  if (part.inlineData) {
    const { mimeType, data } = part.inlineData;
    if (mimeType.startsWith('image/')) return { type: 'image', data, mediaType: mimeType };
    if (mimeType.startsWith('audio/')) return { type: 'audio', data, format: audioFormatOf(mimeType) };
    if (mimeType === 'application/pdf' || mimeType.startsWith('text/')) {
      return { type: 'document', data, mediaType: mimeType };
    }
    throw unconvertible(`${path}.inlineData`, `inline data of type ${mimeType}`);
  }
  if (part.fileData) {
    const { fileUri } = part.fileData;
    const mimeType = part.fileData.mimeType ?? knownMimeOf(fileUri) ?? documentMimeOf(fileUri);
    if (mimeType.startsWith('image/')) return { type: 'image', url: fileUri, mediaType: mimeType };
    if (mimeType === 'application/pdf' || mimeType.startsWith('text/')) {
      return { type: 'document', url: fileUri, mediaType: mimeType };
    }
    throw unconvertible(`${path}.fileData`, `a file of type ${mimeType}`);
  }
  return undefined;
}

/** A `model` turn's parts. A signature on a non-thought part travels as an empty reasoning part before it. */
function modelParts(parts: GeminiPart[], ids: CallIds, path: string): ChatPart[] {
  const out: ChatPart[] = [];
  parts.forEach((part, i) => {
    const signature = part.thoughtSignature || undefined;
    if (part.thought === true) {
      const text = part.text ?? '';
      if (text !== '' || signature !== undefined) out.push({ type: 'reasoning', text, signature });
      return;
    }
    if (signature !== undefined && (part.functionCall || typeof part.text === 'string')) {
      out.push({ type: 'reasoning', text: '', signature });
    }
    if (part.functionCall) {
      const { name, args, id } = part.functionCall;
      out.push({ type: 'tool_call', id: ids.forCall(name, id), name, arguments: JSON.stringify(args ?? {}) });
    } else if (typeof part.text === 'string') {
      if (part.text !== '') out.push({ type: 'text', text: part.text });
    } else {
      const media = mediaPart(part, `${path}.parts.${i}`);
      if (media) out.push(media);
    }
  });
  return out;
}

/** A `user` turn: its function responses become a tool message, ahead of what else it says. */
function userMessages(parts: GeminiPart[], ids: CallIds, path: string): ChatMessage[] {
  const results: ChatToolResult[] = [];
  const rest: ChatPart[] = [];
  parts.forEach((part, i) => {
    if (part.functionResponse) {
      const { name, response, id } = part.functionResponse;
      const text = JSON.stringify(response ?? {});
      results.push({
        type: 'tool_result',
        toolCallId: ids.forResponse(name, id),
        name,
        content: [{ type: 'text', text }],
      });
    } else if (typeof part.text === 'string') {
      if (part.text !== '') rest.push({ type: 'text', text: part.text });
    } else {
      const media = mediaPart(part, `${path}.parts.${i}`);
      if (media) rest.push(media);
    }
  });
  const messages: ChatMessage[] = [];
  if (results.length > 0) messages.push({ role: 'tool', parts: results });
  if (rest.length > 0) messages.push({ role: 'user', parts: rest });
  return messages;
}

function systemOf(instruction: GeminiRequest['systemInstruction']): ChatText[] {
  if (instruction === null || instruction === undefined) return [];
  if (typeof instruction === 'string') return instruction === '' ? [] : [{ type: 'text', text: instruction }];
  const system: ChatText[] = [];
  for (const part of instruction.parts) {
    if (typeof part.text === 'string' && part.text !== '') system.push({ type: 'text', text: part.text });
  }
  return system;
}

function toolsOf(tools: GeminiRequest['tools']): ChatTool[] {
  const out: ChatTool[] = [];
  for (const tool of tools ?? []) {
    for (const fn of tool.functionDeclarations ?? []) {
      const parameters =
        fn.parametersJsonSchema ??
        (fn.parameters ? jsonSchemaFromGemini(fn.parameters) : { type: 'object', properties: {} });
      out.push({ name: fn.name, description: fn.description ?? undefined, parameters });
    }
  }
  return out;
}

function toolChoiceOf(config: GeminiRequest['toolConfig']): ChatToolChoice | undefined {
  const calling = config?.functionCallingConfig;
  const mode = calling?.mode?.toUpperCase();
  if (mode === 'NONE') return { type: 'none' };
  if (mode === 'ANY') {
    const names = calling?.allowedFunctionNames ?? [];
    return names.length === 1 && names[0] ? { type: 'tool', name: names[0] } : { type: 'required' };
  }
  // VALIDATED constrains calls to their schemas but lets the model answer in text, as AUTO does.
  if (mode === 'AUTO' || mode === 'VALIDATED') return { type: 'auto' };
  return undefined;
}

type GenerationConfig = NonNullable<GeminiRequest['generationConfig']>;

function responseFormatOf(config: GenerationConfig): ChatResponseFormat | undefined {
  if (config.responseJsonSchema)
    return { type: 'json_schema', name: 'response', schema: config.responseJsonSchema };
  if (config.responseSchema) {
    return { type: 'json_schema', name: 'response', schema: jsonSchemaFromGemini(config.responseSchema) };
  }
  return config.responseMimeType === 'application/json' ? { type: 'json_object' } : undefined;
}

const EFFORTS: readonly string[] = ['minimal', 'low', 'medium', 'high'] satisfies ReasoningEffort[];

/** thinkingConfig → reasoning. thinkingBudget -1 (dynamic) is thinking on with no budget. */
function reasoningOf(config: GenerationConfig): ChatReasoningConfig | undefined {
  const thinking = config.thinkingConfig;
  if (!thinking) return undefined;
  const budget = thinking.thinkingBudget;
  const level = thinking.thinkingLevel?.toLowerCase();
  return {
    effort: level !== undefined && EFFORTS.includes(level) ? (level as ReasoningEffort) : undefined,
    budgetTokens: budget !== null && budget !== undefined && budget >= 0 ? budget : undefined,
    includeThoughts: thinking.includeThoughts ?? undefined,
  };
}

/**
 * A generateContent body → ChatRequest. Gemini names the model and the streaming choice in the URL
 * (/v1beta/models/{model}:generateContent or :streamGenerateContent?alt=sse), never in the body, so
 * this returns `model: ''` and `stream: false`; the inbound route fills both from the path.
 */
export function decodeGeminiRequest(body: Readonly<Record<string, unknown>>): ChatRequest {
  const request = parseRequest(body);
  const ids = new CallIds();
  const messages: ChatMessage[] = [];
  request.contents.forEach((content, i) => {
    const path = `contents.${i}`;
    const role = content.role ?? 'user';
    if (role === 'model') {
      const parts = modelParts(content.parts, ids, path);
      if (parts.length > 0) messages.push({ role: 'assistant', parts });
    } else if (role === 'user' || role === 'function') {
      // 'function' is the role older clients gave turns of function responses.
      messages.push(...userMessages(content.parts, ids, path));
    } else {
      throw new RelayError(400, `${path}.role: a content's role must be user or model`, 'invalid_request');
    }
  });
  const config: GenerationConfig = request.generationConfig ?? {};
  return {
    model: '',
    stream: false,
    system: systemOf(request.systemInstruction),
    messages,
    tools: toolsOf(request.tools),
    toolChoice: toolChoiceOf(request.toolConfig),
    parallelToolCalls: undefined,
    responseFormat: responseFormatOf(config),
    maxOutputTokens: config.maxOutputTokens ?? undefined,
    temperature: config.temperature ?? undefined,
    topP: config.topP ?? undefined,
    topK: config.topK ?? undefined,
    stop: config.stopSequences ?? [],
    presencePenalty: config.presencePenalty ?? undefined,
    frequencyPenalty: config.frequencyPenalty ?? undefined,
    seed: config.seed ?? undefined,
    reasoning: reasoningOf(config),
    user: undefined,
  };
}
