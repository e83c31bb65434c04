// What Gemini refuses in a generateContent body, with Google's messages. Google's JSON parser rejects any
// field it does not know ("Unknown name … Cannot find field."), so the relay must never send one.
import type { GoogleErrorDetail } from '../vendor-errors.js';
import { isRecord } from './input.js';

/** Fields of GenerateContentRequest in the Gemini API. */
const REQUEST_FIELDS = new Set([
  'model',
  'contents',
  'tools',
  'toolConfig',
  'safetySettings',
  'systemInstruction',
  'generationConfig',
  'cachedContent',
  'serviceTier',
]);

/** Fields of GenerationConfig in the Gemini API (Vertex-only ones such as routingConfig are refused). */
const GENERATION_FIELDS = new Set([
  'stopSequences',
  'responseMimeType',
  'responseSchema',
  'responseJsonSchema',
  'responseModalities',
  'candidateCount',
  'maxOutputTokens',
  'temperature',
  'topP',
  'topK',
  'seed',
  'presencePenalty',
  'frequencyPenalty',
  'responseLogprobs',
  'logprobs',
  'enableEnhancedCivicAnswers',
  'speechConfig',
  'thinkingConfig',
  'imageConfig',
  'mediaResolution',
]);

/** Google's JSON accepts a field in lowerCamelCase or under its proto snake_case name. */
const camel = (name: string): string =>
  name.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

export interface GoogleRefusal {
  message: string;
  details?: GoogleErrorDetail[];
}

interface FieldViolation {
  field?: string;
  description: string;
}

function unknownNames(object: Record<string, unknown>, known: Set<string>, at?: string): FieldViolation[] {
  return Object.keys(object)
    .filter((name) => !known.has(camel(name)))
    .map((name) =>
      at === undefined
        ? { description: `Invalid JSON payload received. Unknown name "${name}": Cannot find field.` }
        : {
            field: at,
            description: `Invalid JSON payload received. Unknown name "${name}" at '${at}': Cannot find field.`,
          },
    );
}

/** The refusal Google answers to a generateContent body, or undefined when it would accept it. */
export function generateContentProblem(body: unknown): GoogleRefusal | undefined {
  if (!isRecord(body)) return { message: 'Invalid JSON payload received. Expected an object.' };
  const config = body.generationConfig ?? body.generation_config;
  const violations = [
    ...unknownNames(body, REQUEST_FIELDS),
    ...(isRecord(config) ? unknownNames(config, GENERATION_FIELDS, 'generation_config') : []),
  ];
  if (violations.length > 0) {
    return {
      message: violations.map((violation) => violation.description).join('\n'),
      details: [{ '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: violations }],
    };
  }
  if (!Array.isArray(body.contents) || body.contents.length === 0) {
    return { message: '* GenerateContentRequest.contents: contents is not specified\n' };
  }
  return undefined;
}
