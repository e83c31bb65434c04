// Reading the answers of the OpenAI endpoints other than chat and completions: each is checked to be
// the shape its endpoint promises and yields the usage it carries (the body goes back unchanged).
import type { IrRequest } from '../../ir/request.js';
import type { IrUsage } from '../../ir/usage.js';
import type { ParsedResponse } from '../types.js';
import { readUsage } from './response.js';
import { isRecord } from '../../wire/json.js';

type Json = Record<string, unknown>;

const count = (v: unknown): number =>
  typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.round(v) : 0;

function jsonObject(body: Buffer): Json {
  const parsed: unknown = JSON.parse(body.toString('utf8'));
  if (!isRecord(parsed)) throw new Error('the answer is not a JSON object');
  return parsed;
}

/** A JSON answer that must hold an array under `field`; usage read by `usageOf`. */
function listAnswer(body: Buffer, field: string, usageOf: (answer: Json) => IrUsage | undefined) {
  const answer = jsonObject(body);
  if (!Array.isArray(answer[field])) throw new Error(`the answer has no ${field}`);
  const usage = usageOf(answer);
  return { usage, text: '', body };
}

/** Usage in the Responses-API style (input_tokens / output_tokens), used by gpt-image and gpt-4o audio. */
function ioUsage(value: unknown): IrUsage | undefined {
  if (!isRecord(value) || (value.input_tokens === undefined && value.output_tokens === undefined)) {
    return undefined;
  }
  return {
    promptTokens: count(value.input_tokens),
    completionTokens: count(value.output_tokens),
    cachedTokens: 0,
  };
}

/** Rerank services report total_tokens only (Jina, SiliconFlow); all of it is input. */
function rerankUsage(answer: Json): IrUsage | undefined {
  const usage = answer.usage;
  if (!isRecord(usage) || usage.total_tokens === undefined) return undefined;
  return { promptTokens: count(usage.total_tokens), completionTokens: 0, cachedTokens: 0 };
}

/** Subtitle formats carry cue numbers and timings around the text; only the text is counted. */
const subtitleText = (text: string): string =>
  text
    .split(/\r?\n/)
    .filter((line) => !/^(WEBVTT|\d+|.*-->.*)$/.test(line.trim()))
    .join('\n')
    .trim();

function transcriptAnswer(ir: IrRequest, body: Buffer): ParsedResponse {
  const format = typeof ir.body.response_format === 'string' ? ir.body.response_format : 'json';
  if (format !== 'json' && format !== 'verbose_json') {
    const text = body.toString('utf8');
    return { text: format === 'text' ? text.trim() : subtitleText(text), body };
  }
  const answer = jsonObject(body);
  if (typeof answer.text !== 'string') throw new Error('the answer has no text');
  // Token-billed models (gpt-4o-transcribe) report usage; others report a duration, which is not tokens.
  const usage = ioUsage(answer.usage);
  return { usage, text: answer.text, body };
}

/** Parses an answer of any non-chat mode; undefined for chat and completions. */
export function parseEndpointResponse(ir: IrRequest, body: Buffer): ParsedResponse | undefined {
  switch (ir.mode) {
    case 'embeddings':
      return listAnswer(body, 'data', (a) => readUsage(a.usage));
    case 'moderations':
      return listAnswer(body, 'results', (a) => readUsage(a.usage));
    case 'rerank':
      return listAnswer(body, 'results', rerankUsage);
    case 'images':
      return listAnswer(body, 'data', (a) => ioUsage(a.usage));
    case 'speech':
      // Audio bytes; the bill comes from the input text.
      if (body.length === 0) throw new Error('the answer has no audio');
      return { text: '', body };
    case 'transcriptions':
    case 'translations':
      return transcriptAnswer(ir, body);
    case 'chat':
    case 'completions':
      return undefined;
  }
}
