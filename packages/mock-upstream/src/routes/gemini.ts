// Gemini's models/{model}:generateContent, :streamGenerateContent (server-sent events with alt=sse, else one
// JSON array) and :countTokens. A stream sends one GenerateContentResponse per word, thoughts first; the last
// one carries the finishReason and the usageMetadata.
import { sendResult, writeFrames, type Exchange, type StreamFraming } from '../exchange.js';
import { planGemini, geminiField, geminiPromptTokens, type GeminiPlan } from '../usage-gemini.js';
import { sendGoogleError } from '../vendor-errors.js';
import { generateContentProblem } from './gemini-checks.js';
import { isRecord } from './input.js';

type Part = { text: string; thought?: true } | { functionCall: { name: string; args: unknown } };

/** Pieces of a text: the first word as is, later words with their leading space. */
const pieces = (words: string[]): string[] => words.map((word, i) => (i === 0 ? word : ` ${word}`));

/** The parts of the whole answer: the thoughts in one part, then the text or the function call. */
function answerParts(plan: GeminiPlan): Part[] {
  const parts: Part[] = [];
  if (plan.thoughts.length > 0) parts.push({ text: plan.thoughts.join(' '), thought: true });
  parts.push(
    plan.answer.kind === 'text'
      ? { text: plan.answer.words.join(' ') }
      : { functionCall: { name: plan.answer.name, args: plan.answer.args } },
  );
  return parts;
}

/** One part per stream event: each thought word, then each answer word (or the whole function call). */
function streamParts(plan: GeminiPlan): Part[] {
  const parts: Part[] = pieces(plan.thoughts).map((text) => ({ text, thought: true }));
  if (plan.answer.kind === 'tool') {
    parts.push({ functionCall: { name: plan.answer.name, args: plan.answer.args } });
  } else {
    parts.push(...pieces(plan.answer.words).map((text) => ({ text })));
  }
  return parts.length > 0 ? parts : [{ text: '' }];
}

function checkedBody(ex: Exchange): Record<string, unknown> | undefined {
  const problem = generateContentProblem(ex.body);
  if (problem !== undefined) {
    sendGoogleError(ex, 400, problem.message, 'INVALID_ARGUMENT', problem.details);
    return undefined;
  }
  return ex.body as Record<string, unknown>;
}

const responseId = (ex: Exchange): string => `mock-response-${ex.seq}`;

export function handleGenerateContent(ex: Exchange, model: string): void {
  const body = checkedBody(ex);
  if (body === undefined) return;
  const plan = planGemini(body, ex.directive);
  sendResult(
    ex,
    200,
    {
      candidates: [
        { content: { parts: answerParts(plan), role: 'model' }, finishReason: plan.finishReason, index: 0 },
      ],
      ...(ex.directive.no_usage ? {} : { usageMetadata: plan.usage }),
      modelVersion: model,
      responseId: responseId(ex),
    },
    'application/json; charset=UTF-8',
  );
}

const SSE_FRAMING: StreamFraming = {
  contentType: 'text/event-stream',
  end: '',
  broken: 'data: {"candidates":[{"content":\r\n\r\n',
  brokenAt: 1,
};

const ARRAY_FRAMING: StreamFraming = {
  contentType: 'application/json; charset=UTF-8',
  end: ']',
  broken: ',\r\n{"candidates":[{"content":',
  brokenAt: 1,
};

export async function handleStreamGenerateContent(ex: Exchange, model: string, sse: boolean): Promise<void> {
  const body = checkedBody(ex);
  if (body === undefined) return;
  const plan = planGemini(body, ex.directive);
  const parts = streamParts(plan);
  const last = parts.length - 1;
  const events = parts.map((part, i) =>
    JSON.stringify({
      candidates: [
        i === last
          ? { content: { parts: [part], role: 'model' }, finishReason: plan.finishReason, index: 0 }
          : { content: { parts: [part], role: 'model' }, index: 0 },
      ],
      ...(i === last && !ex.directive.no_usage ? { usageMetadata: plan.usage } : {}),
      modelVersion: model,
      responseId: responseId(ex),
    }),
  );
  const frames = sse
    ? events.map((event) => `data: ${event}\r\n\r\n`)
    : events.map((event, i) => (i === 0 ? `[${event}` : `,\r\n${event}`));
  await writeFrames(ex, frames, sse ? SSE_FRAMING : ARRAY_FRAMING);
}

/** countTokens takes `contents` or a whole `generateContentRequest`; it counts what generateContent bills. */
export function handleCountTokens(ex: Exchange): void {
  const body = isRecord(ex.body) ? ex.body : {};
  const request = geminiField(body, 'generateContentRequest');
  const total = geminiPromptTokens(isRecord(request) ? request : body);
  sendResult(
    ex,
    200,
    { totalTokens: total, promptTokensDetails: [{ modality: 'TEXT', tokenCount: total }] },
    'application/json; charset=UTF-8',
  );
}
