// The neutral description of a matrix call (what each client format renders in its own shape) and of
// an answer as a client saw it (what each format's strict parser reduces its answer to).
import { expect } from 'vitest';

export type Json = Record<string, unknown>;

/** A tool as the test defines it once; each client format declares it in its own shape. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Json;
}

/** A tool call as a client received it (Gemini's may carry no id). */
export interface SeenToolCall {
  id?: string;
  name: string;
  args: Json;
  /** The call as the answer held it, for formats whose SDKs replay it verbatim (Responses items). */
  replay?: Json;
}

export interface InlineImage {
  mediaType: string;
  /** Base64 bytes. */
  data: string;
}

export interface Scenario {
  system?: string;
  /** The user's message (with a mock directive when the test needs one). */
  user: string;
  image?: InlineImage;
  tools?: ToolSpec[];
  /** A second turn: the call the client got for `user`, and the tool's result (a JSON object). */
  toolTurn?: { call: SeenToolCall; result: Json };
  maxTokens: number;
}

/**
 * Usage as a client's format told it, normalised to the IR's convention (prompt includes cache reads
 * and writes). `cacheWrite` is undefined when the format has no field for it.
 */
export interface SeenUsage {
  prompt: number;
  completion: number;
  cached: number;
  cacheWrite?: number;
}

export interface SeenAnswer {
  text: string;
  toolCalls: SeenToolCall[];
  /** The finish reason, normalised: a tool call or a normal stop. */
  finish: 'stop' | 'tool' | 'length' | 'other';
  usage?: SeenUsage;
  model?: string;
}

export const isJson = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The value as a JSON object, failing the test when it is not one. */
export function asJson(value: unknown, what: string): Json {
  expect(isJson(value), `${what} is a JSON object`).toBe(true);
  return value as Json;
}

export function asArray(value: unknown, what: string): unknown[] {
  expect(Array.isArray(value), `${what} is an array`).toBe(true);
  return value as unknown[];
}

export function asString(value: unknown, what: string): string {
  expect(typeof value, `${what} is a string`).toBe('string');
  return value as string;
}

/** A token count: a non-negative whole number. */
export function asCount(value: unknown, what: string): number {
  expect(
    Number.isSafeInteger(value) && (value as number) >= 0,
    `${what} is a token count (${String(value)})`,
  ).toBe(true);
  return value as number;
}

/** An optional token count (absent means 0, as proto3 JSON and Anthropic's optional fields do). */
export const optionalCount = (value: unknown, what: string): number =>
  value === undefined || value === null ? 0 : asCount(value, what);

/** JSON text of an object (tool arguments, a tool result), parsed. */
export function parseObject(text: unknown, what: string): Json {
  const source = asString(text, what);
  let parsed: unknown;
  try {
    parsed = JSON.parse(source);
  } catch {
    throw new Error(`${what} is not JSON: ${source}`);
  }
  return asJson(parsed, what);
}

export const dataUrl = (image: InlineImage): string => `data:${image.mediaType};base64,${image.data}`;

/** A data: URL's media type and base64 bytes. */
export function parseDataUrl(url: unknown, what: string): InlineImage {
  const match = /^data:([^;,]+);base64,(.*)$/s.exec(asString(url, what));
  expect(match, `${what} is a base64 data URL`).not.toBeNull();
  return { mediaType: match?.[1] ?? '', data: match?.[2] ?? '' };
}
