import { isRecord } from '../../wire/json.js';
// The prompt text of Gemini requests, for the quota hold's estimate and for counting tokens when the
// upstream reports none (and for :countTokens). Google accepts every field in lowerCamelCase or in its
// proto snake_case name, so both are read.

type Json = Record<string, unknown>;

/** A request field under its camelCase or snake_case name. */
export function geminiField(object: Readonly<Json>, camel: string): unknown {
  const value = object[camel];
  return value !== undefined ? value : object[camel.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)];
}

/** What a part adds to the prompt: text, a function call's name and arguments, a function's answer. */
function partText(part: unknown): string {
  if (!isRecord(part)) return '';
  if (typeof part.text === 'string') return part.text;
  const call = geminiField(part, 'functionCall');
  if (isRecord(call)) return `${String(call.name)}${JSON.stringify(call.args ?? {})}`;
  const response = geminiField(part, 'functionResponse');
  if (isRecord(response)) return `${String(response.name)}${JSON.stringify(response.response ?? {})}`;
  return '';
}

/** The text of a Content (or of a bare string, which the SDKs accept for systemInstruction). */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!isRecord(content) || !Array.isArray(content.parts)) return '';
  let text = '';
  for (const part of content.parts) text += `${partText(part)}\n`;
  return text;
}

/** A generateContent request's prompt: system instruction, every turn and the tool declarations. */
export function generatePromptText(body: Readonly<Json>): string {
  let text = contentText(geminiField(body, 'systemInstruction'));
  const contents = body.contents;
  for (const content of Array.isArray(contents) ? contents : []) {
    text += `\n${isRecord(content) ? String(content.role ?? 'user') : ''}\n${contentText(content)}`;
  }
  const tools = body.tools;
  if (Array.isArray(tools) && tools.length > 0) text += JSON.stringify(tools);
  return text;
}

/** The text an embedContent or batchEmbedContents request embeds (titles included). */
export function embedPromptText(body: Readonly<Json>): string {
  const requests = Array.isArray(body.requests) ? body.requests : [body];
  let text = '';
  for (const request of requests) {
    if (!isRecord(request)) continue;
    if (typeof request.title === 'string') text += `${request.title}\n`;
    text += contentText(request.content);
  }
  return text;
}
