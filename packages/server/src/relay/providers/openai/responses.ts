// The Responses API on upstreams that speak it (OpenAI, Azure): a Responses client's bytes go to
// /v1/responses as they came, with only the mapped model and the hold's output limit written in.
import type { ChatRequest } from '../../ir/chat.js';
import type { IrRequest } from '../../ir/request.js';
import { responsesCodec } from '../../wire/responses/index.js';
import { codecStreamParser } from '../codec-stream.js';
import type { ParsedResponse, StreamParser } from '../types.js';

/** The client's body for the upstream: its own bytes when nothing changes. */
export function responsesBody(ir: IrRequest, upstreamModel: string): Buffer | string {
  if (upstreamModel === ir.model && ir.outputLimit === undefined && ir.raw) return ir.raw;
  const body: Record<string, unknown> = Object.assign({}, ir.body);
  body.model = upstreamModel;
  if (ir.outputLimit !== undefined) body.max_output_tokens = ir.outputLimit;
  return JSON.stringify(body);
}

/** A Response object: usage and generated text for billing (and its neutral form for conversion). */
export function parseResponsesResponse(body: Buffer, chat?: ChatRequest): ParsedResponse {
  const answer = responsesCodec.decodeAnswer(JSON.parse(body.toString('utf8')));
  let text = '';
  for (const part of answer.parts) text += part.type === 'tool_call' ? part.name + part.arguments : part.text;
  return { usage: answer.usage, text, body, answer: chat ? answer : undefined };
}

export const responsesStreamParser = (): StreamParser => codecStreamParser(responsesCodec);
