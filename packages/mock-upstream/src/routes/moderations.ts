// POST /v1/moderations: nothing is flagged except texts containing the word "violent" (category violence).
import { sendError, sendJson, type Exchange } from '../exchange.js';
import { contentText, words } from '../usage.js';
import { isRecord } from './input.js';

const CATEGORIES = [
  'harassment',
  'harassment/threatening',
  'hate',
  'hate/threatening',
  'illicit',
  'illicit/violent',
  'self-harm',
  'self-harm/instructions',
  'self-harm/intent',
  'sexual',
  'sexual/minors',
  'violence',
  'violence/graphic',
];

function moderate(text: string): Record<string, unknown> {
  const violent = words(text).some((word) => word.toLowerCase().replace(/[^a-z]/g, '') === 'violent');
  const categories: Record<string, boolean> = {};
  const scores: Record<string, number> = {};
  const applied: Record<string, string[]> = {};
  for (const name of CATEGORIES) {
    const hit = violent && name === 'violence';
    categories[name] = hit;
    scores[name] = hit ? 0.9 : 0.0001;
    applied[name] = ['text'];
  }
  return { flagged: violent, categories, category_scores: scores, category_applied_input_types: applied };
}

export function handleModerations(ex: Exchange): void {
  const body = ex.body;
  const input = isRecord(body) ? body.input : undefined;
  // A string or a list of strings is one result each; a multimodal parts array is a single input.
  const texts =
    typeof input === 'string'
      ? [input]
      : Array.isArray(input) && input.every((item) => typeof item === 'string')
        ? input
        : Array.isArray(input)
          ? [contentText(input)]
          : undefined;
  if (texts === undefined || !isRecord(body)) {
    sendError(ex, 400, "'input' must be a string, an array of strings or an array of content parts.");
    return;
  }
  sendJson(ex, 200, {
    id: `modr-mock${ex.seq}`,
    model: typeof body.model === 'string' ? body.model : 'omni-moderation-latest',
    results: texts.map(moderate),
  });
}
