// POST /v1/audio/speech (audio bytes) and /v1/audio/transcriptions, /v1/audio/translations (multipart in).
import { sendBody, sendError, sendJson, type Exchange } from '../exchange.js';
import { cleanText } from '../directive.js';
import { countTokens } from '../usage.js';
import { isRecord, isUploadedFile } from './input.js';

const SPEECH_TYPES: Record<string, string> = {
  mp3: 'audio/mpeg',
  opus: 'audio/ogg',
  aac: 'audio/aac',
  flac: 'audio/flac',
  wav: 'audio/wav',
  pcm: 'audio/pcm',
};

/** Speech bytes: an MPEG frame header, then 32 bytes per input character (deterministic filler). */
export function mockSpeech(input: string): Buffer {
  const length = 4 + 32 * cleanText(input).length;
  const bytes = Buffer.alloc(length);
  bytes.set([0xff, 0xf3, 0x44, 0xc4]);
  for (let i = 4; i < length; i++) bytes[i] = (i * 31) & 0xff;
  return bytes;
}

export function handleSpeech(ex: Exchange): void {
  const body = ex.body;
  if (!isRecord(body) || typeof body.input !== 'string' || typeof body.model !== 'string') {
    sendError(ex, 400, "'model' and 'input' are required.");
    return;
  }
  const format = typeof body.response_format === 'string' ? body.response_format : 'mp3';
  const contentType = SPEECH_TYPES[format];
  if (contentType === undefined) {
    sendError(ex, 400, `'${format}' is not a supported response_format.`);
    return;
  }
  sendBody(ex, 200, contentType, mockSpeech(body.input));
}

/** Seconds of audio the mock pretends an upload holds: one per 16 000 bytes, at least one. */
export const mockAudioSeconds = (bytes: number): number => Math.max(1, Math.ceil(bytes / 16_000));

/** Audio tokens per second reported by token-billed transcription models (gpt-4o-*). */
export const AUDIO_TOKENS_PER_SECOND = 10;

const two = (n: number): string => String(n).padStart(2, '0');
const timestamp = (seconds: number, separator: string): string =>
  `${two(Math.floor(seconds / 3600))}:${two(Math.floor(seconds / 60) % 60)}:${two(seconds % 60)}${separator}000`;

function handleAudioText(ex: Exchange, task: 'transcribe' | 'translate'): void {
  const body = ex.body;
  const file = isRecord(body) ? body.file : undefined;
  if (!isRecord(body) || !isUploadedFile(file) || typeof body.model !== 'string') {
    sendError(ex, 400, "A multipart form with 'file' and 'model' is required.");
    return;
  }
  const seconds = mockAudioSeconds(file.size);
  const text = `This is the mock ${task === 'transcribe' ? 'transcript' : 'translation'} of ${file.filename}.`;
  const prompt = typeof body.prompt === 'string' ? countTokens(body.prompt) : 0;
  const audioTokens = seconds * AUDIO_TOKENS_PER_SECOND;
  // Transcriptions report usage (tokens for gpt-4o models, duration otherwise); translations do not.
  const usage =
    task === 'translate'
      ? undefined
      : body.model.startsWith('gpt-4o')
        ? {
            type: 'tokens',
            input_tokens: audioTokens + prompt,
            input_token_details: { text_tokens: prompt, audio_tokens: audioTokens },
            output_tokens: countTokens(text),
            total_tokens: audioTokens + prompt + countTokens(text),
          }
        : { type: 'duration', seconds };
  const language =
    task === 'translate' ? 'english' : typeof body.language === 'string' ? body.language : 'english';
  switch (body.response_format ?? 'json') {
    case 'json':
      sendJson(ex, 200, { text, ...(usage ? { usage } : {}) });
      return;
    case 'text':
      sendBody(ex, 200, 'text/plain; charset=utf-8', `${text}\n`);
      return;
    case 'srt':
      sendBody(
        ex,
        200,
        'text/plain; charset=utf-8',
        `1\n${timestamp(0, ',')} --> ${timestamp(seconds, ',')}\n${text}\n\n`,
      );
      return;
    case 'vtt':
      sendBody(
        ex,
        200,
        'text/vtt; charset=utf-8',
        `WEBVTT\n\n${timestamp(0, '.')} --> ${timestamp(seconds, '.')}\n${text}\n\n`,
      );
      return;
    case 'verbose_json':
      sendJson(ex, 200, {
        task,
        language,
        duration: seconds,
        text,
        segments: [
          {
            id: 0,
            seek: 0,
            start: 0,
            end: seconds,
            text,
            tokens: [],
            temperature: 0,
            avg_logprob: -0.1,
            compression_ratio: 1,
            no_speech_prob: 0,
          },
        ],
        ...(usage ? { usage: { type: 'duration', seconds } } : {}),
      });
      return;
    default:
      sendError(ex, 400, "'response_format' must be json, text, srt, verbose_json or vtt.");
  }
}

export const handleTranscriptions = (ex: Exchange): void => handleAudioText(ex, 'transcribe');
export const handleTranslations = (ex: Exchange): void => handleAudioText(ex, 'translate');
