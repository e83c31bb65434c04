// POST /v1/images/generations. A per-call price (ModelPrice) is charged per image, scaled by size and
// quality (see image-price.ts); a token-priced model (gpt-image-*) is billed from the upstream usage.
import { z } from 'zod';
import { countTokens } from '../../../billing/token-counter.js';
import type { CallSetup } from '../call-setup.js';
import { withModelPrice } from '../call-setup.js';
import { createClientSink } from '../../pipeline/client-sink.js';
import { oneShotFormat, oneShotIr } from '../json-endpoint.js';
import { parseOrThrow } from '../openai-shared.js';
import { orderPrice } from './image-price.js';

/** OpenAI's model when the request names none. */
export const DEFAULT_IMAGE_MODEL = 'dall-e-2';

const imageRequest = z.looseObject({
  model: z.string({ error: 'model must be a string' }).min(1).nullish(),
  prompt: z.string({ error: 'prompt is required' }).min(1, { error: 'prompt is required' }),
  n: z
    .number({ error: 'n must be a number' })
    .int({ error: 'n must be a whole number' })
    .min(1, { error: 'n must be between 1 and 10' })
    .max(10, { error: 'n must be between 1 and 10' })
    .nullish(),
  size: z.string().nullish(),
  quality: z.string().nullish(),
});

export const openAiImages = oneShotFormat(
  'images',
  (body, raw) => {
    const req = parseOrThrow(imageRequest, body);
    return oneShotIr('images', req.model ?? DEFAULT_IMAGE_MODEL, req, raw);
  },
  (ir) => ({ text: typeof ir.body.prompt === 'string' ? ir.body.prompt : '', tokens: 0 }),
  (text, ir) => countTokens(text, ir.model),
);

/** Per-call prices become the price of this order; token prices are left to the usage. */
export const priceImageOrder: CallSetup = (rt, ir, reply) => {
  const sink = createClientSink(reply);
  const modelPrice = rt.ctx.options.get('ModelPrice')[ir.model];
  if (modelPrice === undefined) return { rt, sink };
  const n = typeof ir.body.n === 'number' ? ir.body.n : 1;
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  const price = orderPrice(modelPrice, {
    model: ir.model,
    n,
    size: str(ir.body.size),
    quality: str(ir.body.quality),
  });
  return { rt: withModelPrice(rt, ir.model, price), sink };
};
