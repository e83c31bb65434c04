// Small pieces the Anthropic codec's request, answer and stream halves share.

import { isRecord, toolArguments } from '../json.js';
import type { Json } from '../json.js';

export { isRecord, type Json };

/** One named SSE event, as Anthropic frames every event of a Messages stream. */
export const anthropicSse = (name: string, payload: unknown): string =>
  `event: ${name}\ndata: ${JSON.stringify(payload)}\n\n`;

/** Anthropic message ids start with msg_; a Sluice id gets the prefix so clients that check it are happy. */
export const messageId = (id: string): string => (id.startsWith('msg_') ? id : `msg_${id}`);

/** A tool call's JSON arguments as the object Anthropic's `input` must be. */
export const toolInput = (argumentsJson: string): Json => toolArguments(argumentsJson);
