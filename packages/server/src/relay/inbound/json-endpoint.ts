// What the OpenAI endpoints that answer in one JSON (or binary) body share: no stream, no generated
// text to hold quota for, and the OpenAI error shape.
import type { IrRequest, RelayMode } from '../ir/request.js';
import type { InboundFormat } from './types.js';
import { OPENAI_STREAM_END, estimateTokens, openAiErrorBody, openAiStreamError } from './openai-shared.js';

/** The IR of a one-shot call: the client's bytes go upstream as they came unless the model is mapped. */
export const oneShotIr = (
  mode: RelayMode,
  model: string,
  body: Readonly<Record<string, unknown>>,
  raw: Buffer | undefined,
): IrRequest => ({
  mode,
  model,
  stream: false,
  clientWantsUsage: false,
  body,
  ...(raw ? { raw } : {}),
});

/** An inbound format whose prompt is the text `textOf` finds in the request. */
export function oneShotFormat(
  mode: RelayMode,
  parse: InboundFormat['parse'],
  textOf: (ir: IrRequest) => { text: string; tokens: number },
  count: (text: string, ir: IrRequest) => Promise<number>,
): InboundFormat {
  return {
    mode,
    wireFormat: 'openai',
    parse,
    estimatePromptTokens(ir) {
      const { text, tokens } = textOf(ir);
      return estimateTokens(text.length) + tokens;
    },
    async countPromptTokens(ir) {
      const { text, tokens } = textOf(ir);
      return (await count(text, ir)) + tokens;
    },
    errorBody: openAiErrorBody,
    streamError: openAiStreamError,
    streamEnd: OPENAI_STREAM_END,
  };
}
