// POST /v1/images/generations, and GET /mock-files/image.png for the URLs it hands out.
import { sendBody, sendError, sendJson, nowSeconds, type Exchange } from '../exchange.js';
import { cleanText } from '../directive.js';
import { countTokens } from '../usage.js';
import { isRecord } from './input.js';

/** A 1×1 transparent PNG: every generated image. */
export const MOCK_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/** Output tokens reported per image by token-billed image models (gpt-image-*). */
export const IMAGE_OUTPUT_TOKENS = 272;

export const IMAGE_PATH = '/mock-files/image.png';

export function handleImageGenerations(ex: Exchange): void {
  const body = ex.body;
  if (!isRecord(body) || typeof body.prompt !== 'string' || body.prompt.trim() === '') {
    sendError(ex, 400, "'prompt' is required.");
    return;
  }
  const model = typeof body.model === 'string' ? body.model : 'dall-e-2';
  const n = typeof body.n === 'number' && Number.isInteger(body.n) && body.n > 0 ? Math.min(body.n, 10) : 1;
  // gpt-image models always answer with base64 and report token usage; DALL·E answers with URLs by default.
  const tokenBilled = model.startsWith('gpt-image');
  const asBase64 = tokenBilled || body.response_format === 'b64_json';
  const prompt = cleanText(body.prompt).trim();
  const image = {
    ...(asBase64 ? { b64_json: MOCK_PNG.toString('base64') } : { url: `${ex.baseUrl}${IMAGE_PATH}` }),
    ...(model === 'dall-e-3' ? { revised_prompt: prompt } : {}),
  };
  const promptTokens = countTokens(prompt);
  const outputTokens = IMAGE_OUTPUT_TOKENS * n;
  sendJson(ex, 200, {
    created: nowSeconds(),
    data: Array.from({ length: n }, () => image),
    ...(tokenBilled
      ? {
          usage: {
            input_tokens: promptTokens,
            input_tokens_details: { text_tokens: promptTokens, image_tokens: 0 },
            output_tokens: outputTokens,
            total_tokens: promptTokens + outputTokens,
          },
        }
      : {}),
  });
}

export function handleImageFile(ex: Exchange): void {
  sendBody(ex, 200, 'image/png', MOCK_PNG);
}
