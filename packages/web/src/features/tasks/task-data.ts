// The `data` of an async task row: the upstream's result as JSON text. For a Suno song it is a list
// of clips (title, audio, cover, video, metadata); for lyrics one object with the text. Rows are
// whatever the upstream sent, so nothing here trusts the shape: a field of the wrong type is
// dropped, text that is not JSON reads as no result, and media addresses must be http(s).
import { z } from 'zod';

const text = z.string().optional().catch(undefined);
const numberOrText = z
  .union([z.number().finite(), z.string()])
  .optional()
  .catch(undefined)
  .transform((value) => {
    if (value === undefined) return undefined;
    const n = typeof value === 'number' ? value : Number(value.trim() === '' ? NaN : value);
    return Number.isFinite(n) && n >= 0 ? n : undefined;
  });

const clipSchema = z.object({
  id: text,
  title: text,
  status: text,
  audio_url: text,
  image_url: text,
  image_large_url: text,
  video_url: text,
  model_name: text,
  metadata: z
    .object({
      tags: text,
      prompt: text,
      duration: numberOrText,
      error_message: text,
      error_type: text,
    })
    .optional()
    .catch(undefined),
});

const lyricsSchema = z.object({ id: text, title: text, status: text, text: z.string() });

export interface SunoClip {
  /** Position in the list, a key when the upstream gave no id. */
  index: number;
  id: string;
  title: string;
  status: string;
  audioUrl: string | null;
  imageUrl: string | null;
  /** The larger cover for the image viewer (the thumbnail's own when there is none, and the other way round). */
  imageLargeUrl: string | null;
  videoUrl: string | null;
  modelName: string;
  tags: string;
  /** The lyrics the song was sung from. */
  prompt: string;
  /** Seconds. */
  duration: number | null;
  errorMessage: string;
}

export interface SunoLyrics {
  title: string;
  text: string;
}

export interface TaskResult {
  clips: SunoClip[];
  lyrics: SunoLyrics | null;
  /** The data as parsed JSON, for showing it indented; undefined when it is not JSON. */
  json: unknown;
}

/** An address the console may load media from: http(s) only, nothing the page would run. */
export function mediaUrl(value: unknown): string | null {
  if (typeof value !== 'string' || value.trim() === '') return null;
  try {
    const url = new URL(value.trim(), window.location.href);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

function parseJson(data: unknown): unknown {
  if (typeof data !== 'string' || data.trim() === '') return undefined;
  try {
    return JSON.parse(data) as unknown;
  } catch {
    return undefined;
  }
}

function toClip(value: unknown, index: number): SunoClip | null {
  const parsed = clipSchema.safeParse(value);
  if (!parsed.success) return null;
  const c = parsed.data;
  const large = mediaUrl(c.image_large_url);
  const imageUrl = mediaUrl(c.image_url) ?? large;
  return {
    index,
    id: c.id ?? '',
    title: c.title ?? '',
    status: c.status ?? '',
    audioUrl: mediaUrl(c.audio_url),
    imageUrl,
    imageLargeUrl: large ?? imageUrl,
    videoUrl: mediaUrl(c.video_url),
    modelName: c.model_name ?? '',
    tags: c.metadata?.tags ?? '',
    prompt: c.metadata?.prompt ?? '',
    duration: c.metadata?.duration ?? null,
    errorMessage: c.metadata?.error_message ?? '',
  };
}

/** Something worth a row of the result: a clip with media, a title or an error. */
const hasContent = (clip: SunoClip): boolean =>
  clip.audioUrl !== null ||
  clip.imageUrl !== null ||
  clip.videoUrl !== null ||
  clip.title !== '' ||
  clip.errorMessage !== '';

/**
 * Reads a task's data. Lyrics are an object with `text` (or a list holding one); songs a list of
 * clips, or an object whose `clips` or `data` is that list. Anything else is no result.
 */
export function readTaskResult(data: unknown): TaskResult {
  const json = parseJson(data);
  const list = Array.isArray(json)
    ? json
    : typeof json === 'object' && json !== null
      ? ((['clips', 'data'] as const)
          .map((name) => (json as Record<string, unknown>)[name])
          .find((value) => Array.isArray(value)) as unknown[] | undefined)
      : undefined;

  const lyricsSource = list === undefined ? json : list.length === 1 ? list[0] : undefined;
  const lyrics = lyricsSchema.safeParse(lyricsSource);
  if (lyrics.success && lyrics.data.text.trim() !== '') {
    return { clips: [], lyrics: { title: lyrics.data.title ?? '', text: lyrics.data.text }, json };
  }
  const clips = (list ?? [])
    .map(toClip)
    .filter((clip): clip is SunoClip => clip !== null && hasContent(clip));
  return { clips, lyrics: null, json };
}

/** Seconds as m:ss. */
export function formatClipDuration(seconds: number): string {
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}
