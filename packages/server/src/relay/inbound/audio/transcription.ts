// POST /v1/audio/transcriptions and /v1/audio/translations: a multipart upload forwarded as it came.
// Billed by the upstream's token usage when it reports one (gpt-4o-transcribe); otherwise (whisper
// reports a duration or nothing) by the tokens of the returned text, as completion tokens.
import { RelayError } from '../../ir/errors.js';
import type { RelayMode } from '../../ir/request.js';
import type { InboundFormat } from '../types.js';
import { oneShotFormat } from '../json-endpoint.js';
import { countTokens } from '../../../billing/token-counter.js';
import { MultipartForm } from './multipart.js';

function parseUpload(mode: RelayMode): InboundFormat['parse'] {
  return (body, raw) => {
    if (!(body instanceof MultipartForm) || !raw) {
      throw new RelayError(
        400,
        'the request must be a multipart form with file and model',
        'invalid_request',
      );
    }
    const model = body.fields.model;
    if (model === undefined || model === '')
      throw new RelayError(400, 'model is required', 'invalid_request');
    if (!body.files.some((f) => f.field === 'file')) {
      throw new RelayError(400, 'file is required', 'invalid_request');
    }
    return {
      mode,
      model,
      stream: false,
      clientWantsUsage: false,
      body: body.fields,
      raw,
      contentType: body.contentType,
    };
  };
}

/** The prompt field (a hint for the model's style) is the only text going in. */
const uploadFormat = (mode: RelayMode): InboundFormat =>
  oneShotFormat(
    mode,
    parseUpload(mode),
    (ir) => ({ text: typeof ir.body.prompt === 'string' ? ir.body.prompt : '', tokens: 0 }),
    (text, ir) => countTokens(text, ir.model),
  );

export const openAiTranscriptions = uploadFormat('transcriptions');
export const openAiTranslations = uploadFormat('translations');
