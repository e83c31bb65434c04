// Most events of a chat stream are alike but for their text: an OpenAI chunk repeats its id, model and
// choice around `"content":"…"`, an Anthropic text delta its event line, type and index around
// `"text":"…"`. Once a decoder has parsed one such event, the template keeps the event's bytes around
// its text, SSE framing included; a later event with exactly those bytes around a valid JSON string is
// that same event with another text, read from the upstream's bytes by comparing strings, before it is
// framed or parsed. A field that changes in every event without meaning anything (the `obfuscation` pad
// OpenAI adds to each chunk) may be a string of any content too. Anything else (other events, another
// field order, a comment line, escapes the template cannot vouch for) is left to the decoder's parse.
// Where a plain text event means the same in any stream (Anthropic's text deltas), the dialect keeps
// the templates its streams learnt in a book, and a new stream takes one that matches its events
// instead of parsing one and learning its own.
//
// Templates work on an event's bytes as latin1 text (one character per byte), as the SSE decoder scans
// them: a UTF-8 character never holds a byte below 0x80, so quotes, backslashes and control characters
// are found the same way in any text.
import { SseDecoder, rawText } from '../sse.js';
import type { RawBytes } from '../sse.js';
import { jsonStringValue } from './json.js';

const QUOTE = 0x22;
const NOT_ASCII = /[\u0080-\uffff]/;
const BACKSLASH = 0x5c;

/**
 * A text no upstream sends, written in where the template's text was to check that the text is the
 * field the decoder reads (and not, say, a key that merely ends in the same name).
 */
const PROBE = '\u0001\u0002probe\u0002\u0001';
/** Plain text events tried as the template before the stream is taken as one whose events differ. */
const MAX_MISSES = 3;

/** What a decoder reads from a parsed event: its text, and the string fields that mean nothing. */
export interface TemplateFields {
  text: string;
  /** Fields (by key) whose string value changes from event to event and is ignored. */
  padding: readonly { key: string; value: string }[];
}

/** Where one string value sits in an event: from its opening quote to its closing quote. */
interface Placed {
  key: string;
  open: number;
  close: number;
}

/** A string as JSON.stringify writes it, as the latin1 reading of its UTF-8 bytes. */
function latin1Json(value: string): string {
  const json = JSON.stringify(value);
  // ASCII reads the same either way; a Buffer round trip costs about 1 µs.
  return NOT_ASCII.test(json) ? Buffer.from(json).toString('latin1') : json;
}

/**
 * Finds `"key":"value"` (the value as JSON.stringify writes it) exactly once in `raw`; undefined when
 * it is not there (the upstream escaped it another way) or is there more than once.
 */
function place(raw: string, key: string, value: string): Placed | undefined {
  const needle = `"${key}":${latin1Json(value)}`;
  const at = raw.indexOf(needle);
  // A second search from just after the first (lastIndexOf is a call into V8's runtime, slower).
  if (at === -1 || raw.indexOf(needle, at + 1) !== -1) return undefined;
  return { key, open: at + key.length + 3, close: at + needle.length - 1 };
}

/** Set by `stringEnd` when the string it scanned holds an escape. */
let sawEscape = false;

/**
 * The offset of the closing quote of the JSON string whose content starts at `start`, or -1 when its
 * content is not valid: a control character (a line break among them), or no closing quote.
 */
function stringEnd(text: string, start: number): number {
  sawEscape = false;
  for (let i = start; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === QUOTE) return i;
    if (code < 0x20) return -1;
    if (code === BACKSLASH) {
      sawEscape = true;
      i++;
    }
  }
  return -1;
}

/**
 * Whether `text` holds `part` at `at`. A slice and `===` compare the characters in one block, where
 * `startsWith` went through them one by one (measured: about 35 ns against 350 ns for 180 characters).
 */
const holdsAt = (text: string, at: number, part: string): boolean =>
  text.slice(at, at + part.length) === part;

export class TextEventTemplate {
  /**
   * The event's fixed bytes: before the first string value (with its opening quote), between each
   * value and the next (from a closing quote to the next opening one), and after the last (up to the
   * blank line that ends the event).
   */
  private segments: readonly string[] | undefined;
  /** Which of the string values is the text (the others are padding). */
  private textAt = 0;
  private misses = 0;
  /** Where the text of the event `match` last matched lies (its content, without the quotes). */
  textStart = 0;
  textEnd = 0;
  /** Whether that text holds escapes (to be undone with `jsonStringValue`). */
  textEscaped = false;

  /**
   * @param key the field whose string value is the event's text (`content`, `text`)
   * @param fieldsOf the text a parsed event carries when it is a plain text event, with its padding
   *   fields (the decoder's own reading: undefined for any event that means more than its text)
   * @param book templates other streams of the dialect learnt, tried until this one has its own; the
   *   template it learns goes there too (only for events whose meaning no stream's state changes)
   */
  constructor(
    private readonly key: string,
    private readonly fieldsOf: (parsed: unknown) => TemplateFields | undefined,
    private readonly book?: TemplateBook,
  ) {}

  /** Whether the decoder may stop offering events to learn from. */
  get settled(): boolean {
    return this.segments !== undefined || this.misses >= MAX_MISSES;
  }

  /**
   * Takes a parsed event as the template when it is a plain text event whose text (and padding) can
   * be found in its bytes exactly once each; `parsed` is its data parsed. Called by the decoder after
   * a full parse, until settled, for events it reads as text alone.
   */
  learn(event: RawBytes, parsed: unknown): void {
    if (this.settled) return;
    const fields = this.fieldsOf(parsed);
    if (fields === undefined || fields.text === '') return;
    const raw = rawText(event);
    const placed: Placed[] = [];
    for (const { key, value } of [{ key: this.key, value: fields.text }, ...fields.padding]) {
      const found = place(raw, key, value);
      if (found === undefined) {
        this.misses++;
        return;
      }
      placed.push(found);
    }
    placed.sort((a, b) => a.open - b.open);
    // Each segment but the first starts at a closing quote; the probe is the event with the text
    // replaced by PROBE and the padding by another string.
    const segments: string[] = [];
    let from = 0;
    let probe = '';
    for (const value of placed) {
      segments.push(raw.slice(from, value.open + 1));
      const replacement = JSON.stringify(value.key === this.key ? PROBE : 'x');
      probe += raw.slice(from === 0 ? 0 : from + 1, value.open) + replacement;
      from = value.close;
    }
    segments.push(raw.slice(from));
    probe += raw.slice(from + 1);
    if (readProbe(probe, this.fieldsOf) !== PROBE) {
      this.misses++;
      return;
    }
    this.segments = segments;
    this.textAt = placed.findIndex((p) => p.key === this.key);
    this.book?.add(segments, this.textAt);
  }

  /**
   * Where the event at `at` in `text` (a decoder's bytes as latin1) ends, when it is the template's
   * event with another text (and padding): then it means nothing else, and its text lies from
   * `textStart` to `textEnd`. -1 when it is not (the decoder frames and parses it).
   */
  match(text: string, at: number): number {
    const segments = this.segments;
    if (segments !== undefined) return this.matchWith(segments, this.textAt, text, at);
    if (this.book === undefined || this.misses >= MAX_MISSES) return -1;
    for (const known of this.book.templates) {
      const end = this.matchWith(known.segments, known.textAt, text, at);
      if (end !== -1) {
        this.segments = known.segments;
        this.textAt = known.textAt;
        return end;
      }
    }
    return -1;
  }

  private matchWith(segments: readonly string[], textAt: number, text: string, at: number): number {
    const first = segments[0] as string;
    if (!holdsAt(text, at, first)) return -1;
    let next = at + first.length;
    for (let i = 1; i < segments.length; i++) {
      const segment = segments[i] as string;
      const end = stringEnd(text, next);
      if (end === -1 || !holdsAt(text, end, segment)) return -1;
      if (i - 1 === textAt) {
        this.textStart = next;
        this.textEnd = end;
        this.textEscaped = sawEscape;
      } else if (sawEscape && jsonStringValue(text.slice(next, end)) === undefined) {
        return -1;
      }
      next = end + segment.length;
    }
    return next;
  }
}

/** A template's bytes, as a book keeps them. */
interface KnownTemplate {
  segments: readonly string[];
  textAt: number;
}

/** Templates a book holds at most (the newest first). */
const BOOK_SIZE = 4;

/**
 * The templates learnt by the streams of a dialect whose plain text events mean the same in any stream
 * and often come in the same bytes (Anthropic's text deltas of a given block index): a new stream's
 * template takes one that matches its events instead of parsing and learning its own.
 */
export class TemplateBook {
  private known: KnownTemplate[] = [];

  get templates(): readonly KnownTemplate[] {
    return this.known;
  }

  add(segments: readonly string[], textAt: number): void {
    const same = (t: KnownTemplate) =>
      t.textAt === textAt &&
      t.segments.length === segments.length &&
      t.segments.every((s, i) => s === segments[i]);
    this.known = [{ segments, textAt }, ...this.known.filter((t) => !same(t))].slice(0, BOOK_SIZE);
  }
}

/**
 * The text the decoder reads from the probe event: framed by a fresh SSE decoder, so the template's
 * bytes are shown to be one whole event whose data carries the probe as its text.
 */
function readProbe(
  probe: string,
  fieldsOf: (parsed: unknown) => TemplateFields | undefined,
): string | undefined {
  const decoder = new SseDecoder();
  const bytes = Buffer.from(probe, 'latin1');
  const events = decoder.push(bytes);
  const event = events[0];
  if (events.length !== 1 || event?.end !== bytes.length || event.data === undefined) return undefined;
  try {
    return fieldsOf(JSON.parse(event.data))?.text;
  } catch {
    return undefined;
  }
}
