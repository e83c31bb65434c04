// Embeddings on Gemini: a Gemini client's embedContent / batchEmbedContents body goes up as it came;
// an OpenAI /v1/embeddings call becomes one batchEmbedContents request per input and its answer the
// OpenAI embedding list.
import { RelayError } from '../../ir/errors.js';
import type { IrRequest } from '../../ir/request.js';
import { upstreamTokenCount } from '../../ir/usage.js';
import type { IrUsage } from '../../ir/usage.js';
import type { ParsedResponse } from '../types.js';
import { isRecord } from '../../wire/json.js';

type Json = Record<string, unknown>;

/** A Gemini client's embedding body is a batch when it carries `requests`. */
export const isBatchEmbedding = (body: Readonly<Json>): boolean => Array.isArray(body.requests);

/**
 * A Gemini client's embedding body for the upstream: its bytes, or with a mapped model a copy whose
 * `model` fields name the upstream model (Google checks a batch's models against the URL's).
 */
export function geminiEmbedBody(ir: IrRequest, model: string): Buffer | string {
  if (model === ir.model && ir.raw) return ir.raw;
  const name = `models/${model}`;
  const body: Json = Object.assign({}, ir.body);
  if (Array.isArray(body.requests)) {
    body.requests = body.requests.map((request: unknown) =>
      isRecord(request) ? Object.assign({}, request, { model: name }) : request,
    );
  } else if (body.model !== undefined) {
    body.model = name;
  }
  return JSON.stringify(body);
}

/** The texts of an OpenAI embeddings `input`; Gemini embeds text only, so token arrays are refused. */
function inputTexts(input: unknown): string[] {
  if (typeof input === 'string') return [input];
  if (Array.isArray(input) && input.every((item) => typeof item === 'string')) return input;
  throw new RelayError(
    400,
    'input: this model takes text only (a string or an array of strings), not token arrays',
    'invalid_request',
  );
}

/** An OpenAI /v1/embeddings body as batchEmbedContents: `dimensions` becomes outputDimensionality. */
export function openAiEmbeddingsToGemini(body: Readonly<Json>, model: string): Json {
  const dimensions = typeof body.dimensions === 'number' && body.dimensions > 0 ? body.dimensions : undefined;
  const name = `models/${model}`;
  return {
    requests: inputTexts(body.input).map((text) => ({
      model: name,
      content: { parts: [{ text }] },
      outputDimensionality: dimensions,
    })),
  };
}

const vectorOf = (embedding: unknown): number[] => {
  const values = isRecord(embedding) ? embedding.values : undefined;
  if (!Array.isArray(values) || !values.every((v) => typeof v === 'number')) {
    throw new Error('an embedding has no values');
  }
  return values as number[];
};

/** Little-endian float32 in base64, as OpenAI answers `encoding_format: "base64"`. */
function base64Floats(values: number[]): string {
  const floats = new Float32Array(values);
  return Buffer.from(floats.buffer, floats.byteOffset, floats.byteLength).toString('base64');
}

/**
 * Prompt tokens Vertex reports (usageMetadata.promptTokenCount); the Gemini API reports none, and the
 * relay then counts the input itself.
 */
function embeddingUsage(answer: Json): IrUsage | undefined {
  if (!isRecord(answer.usageMetadata)) return undefined;
  const prompt = upstreamTokenCount(answer.usageMetadata.promptTokenCount);
  return prompt === null ? undefined : { promptTokens: prompt, completionTokens: 0, cachedTokens: 0 };
}

function jsonAnswer(body: Buffer): Json {
  const parsed: unknown = JSON.parse(body.toString('utf8'));
  if (!isRecord(parsed)) throw new Error('the answer is not a JSON object');
  return parsed;
}

/**
 * An embedding answer: a Gemini client's goes back as it came; an OpenAI client's is rewritten into
 * OpenAI's list. Its `usage` holds the upstream's count, or 0 when Gemini reported none (the call is
 * then billed by Sluice's count of the input, which the log shows).
 */
export function parseGeminiEmbeddings(ir: IrRequest, body: Buffer): ParsedResponse {
  const answer = jsonAnswer(body);
  const usage = embeddingUsage(answer);
  if (ir.wire === 'gemini') {
    if (isRecord(answer.embedding)) vectorOf(answer.embedding);
    else if (Array.isArray(answer.embeddings)) answer.embeddings.forEach(vectorOf);
    else throw new Error('the answer has no embedding');
    return { usage, text: '', body };
  }
  if (!Array.isArray(answer.embeddings)) throw new Error('the answer has no embeddings');
  const base64 = ir.body.encoding_format === 'base64';
  const prompt = usage?.promptTokens ?? 0;
  const openAi = {
    object: 'list',
    data: answer.embeddings.map((embedding: unknown, index: number) => {
      const values = vectorOf(embedding);
      return { object: 'embedding', index, embedding: base64 ? base64Floats(values) : values };
    }),
    model: ir.model,
    usage: { prompt_tokens: prompt, total_tokens: prompt },
  };
  return { usage, text: '', body: Buffer.from(JSON.stringify(openAi)) };
}
