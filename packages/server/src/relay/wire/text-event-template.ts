// Most events of a chat stream are alike but for their text: an OpenAI chunk repeats its id, model and
// choice around `"content":"…"`, an Anthropic text delta its event line, type and index around
// `"text":"…"`. Once a decoder has parsed one such event, the template keeps the event's bytes around
// its text, SSE framing included; a later event with exactly those bytes around a valid JSON string is
// that same event with another text, read from the upstream's bytes by comparing strings, before it is
// framed or parsed. A field that changes in every event without meaning anything (the `obfuscation` pad
// OpenAI adds to each chunk) may be a string of any content too. Anything else (other events, another
// field order, a comment line, escapes the template cannot vouch for) is left to the decoder's parse.
// Where a plain text event means the same in any stream (Anthropic's text deltas, OpenAI's content
// chunks), the dialect keeps the templates its streams learnt in a book, and a new stream takes one that
// matches its events instead of parsing one and learning its own. Fields that are the same in every event
// of one stream but differ between streams (an OpenAI chunk's `id` and `created`) are holes in a book's
// template, filled with the new stream's own values (from an event of it that was parsed) before it is
// tried.
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

/**
 * A field whose value is the same in every event of one stream, differs between streams and means
 * nothing to the decoder (an OpenAI chunk's `id` and `created`).
 */
export interface StreamField {
  key: string;
  value: unknown;
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

/** Where `"key":json` is in `raw`, when it is there exactly once; -1 when it is not, or is more often. */
function onlyPlace(raw: string, key: string, json: string): number {
  const needle = `"${key}":${json}`;
  const at = raw.indexOf(needle);
  // A second search from just after the first (lastIndexOf is a call into V8's runtime, slower).
  return at === -1 || raw.indexOf(needle, at + 1) !== -1 ? -1 : at;
}

/**
 * Finds `"key":"value"` (the value as JSON.stringify writes it) exactly once in `raw`; undefined when
 * it is not there (the upstream escaped it another way) or is there more than once.
 */
function place(raw: string, key: string, value: string): Placed | undefined {
  const json = latin1Json(value);
  const at = onlyPlace(raw, key, json);
  if (at === -1) return undefined;
  return { key, open: at + key.length + 3, close: at + key.length + 3 + json.length - 1 };
}

/** Plain ASCII with no quote or backslash: a string JSON writes as itself between quotes. */
const PLAIN_STRING = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/**
 * A stream field's value as JSON writes it, when a template may hold it: a plain string or a
 * non-negative safe integer. Undefined for anything else (the template then keeps no hole for it).
 */
function holeText(value: unknown): string | undefined {
  if (typeof value === 'string') return PLAIN_STRING.test(value) ? `"${value}"` : undefined;
  return Number.isSafeInteger(value) && (value as number) >= 0 ? String(value) : undefined;
}

/** Where a stream field's value lies in `raw`, when `"key":value` is there exactly once and whole. */
function placeStreamField(
  raw: string,
  key: string,
  json: string,
): { start: number; end: number } | undefined {
  const at = onlyPlace(raw, key, json);
  if (at === -1) return undefined;
  const end = at + key.length + 3 + json.length;
  // A number goes on as long as digits, a point or an exponent follow.
  if (json.charCodeAt(0) !== QUOTE && /[\d.eE]/.test(raw.charAt(end))) return undefined;
  return { start: at + key.length + 3, end };
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
  /**
   * The book's templates with this stream's values in their holes, once an event of the stream has
   * been parsed (for a book whose templates have holes).
   */
  private candidates: readonly Template[] | undefined;
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
    if (this.candidates === undefined && this.book?.streamFieldsOf !== undefined) {
      this.candidates = this.book.filledFor(parsed);
    }
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
    /** Where each segment starts in `raw`. */
    const starts: number[] = [];
    let from = 0;
    let probe = '';
    for (const value of placed) {
      starts.push(from);
      segments.push(raw.slice(from, value.open + 1));
      const replacement = JSON.stringify(value.key === this.key ? PROBE : 'x');
      probe += raw.slice(from === 0 ? 0 : from + 1, value.open) + replacement;
      from = value.close;
    }
    starts.push(from);
    segments.push(raw.slice(from));
    probe += raw.slice(from + 1);
    if (readProbe(probe, this.fieldsOf) !== PROBE) {
      this.misses++;
      return;
    }
    this.segments = segments;
    this.textAt = placed.findIndex((p) => p.key === this.key);
    this.book?.add({ segments, textAt: this.textAt }, raw, starts, parsed);
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
    const candidates =
      this.book.streamFieldsOf === undefined ? this.book.templates : (this.candidates ?? NONE);
    for (const known of candidates) {
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

/** A template's fixed bytes and which of its string values is the text. */
interface Template {
  segments: readonly string[];
  textAt: number;
}

const NONE: readonly Template[] = [];

/** A stream field's value cut out of a book's template: where it went, and whose value it is. */
interface Hole {
  segment: number;
  /** Offset in the segment as the book keeps it (with every hole's value cut out). */
  offset: number;
  key: string;
}

/** A template as a book keeps it: the stream fields' values cut out of its segments. */
interface KnownTemplate extends Template {
  holes: readonly Hole[];
}

/** Templates a book holds at most (the newest first). */
const BOOK_SIZE = 4;

const sameTemplate = (a: KnownTemplate, b: KnownTemplate): boolean =>
  a.textAt === b.textAt &&
  a.segments.length === b.segments.length &&
  a.segments.every((s, i) => s === b.segments[i]) &&
  a.holes.length === b.holes.length &&
  a.holes.every((h, i) => {
    const other = b.holes[i] as Hole;
    return h.segment === other.segment && h.offset === other.offset && h.key === other.key;
  });

/**
 * The templates learnt by the streams of a dialect whose plain text events mean the same in any stream
 * and often come in the same bytes (Anthropic's text deltas of a given block index, OpenAI's content
 * chunks of a given model): a new stream's template takes one that matches its events instead of
 * parsing and learning its own.
 */
export class TemplateBook {
  private known: KnownTemplate[] = [];

  /**
   * @param streamFieldsOf for a dialect whose events carry stream fields (see `StreamField`): those of
   *   a parsed event. The book's templates then keep them as holes, and a stream tries them only once
   *   an event of its own has been parsed, with that event's values in the holes.
   */
  constructor(readonly streamFieldsOf?: (parsed: unknown) => readonly StreamField[] | undefined) {}

  /** The templates, newest first (as they are kept: with a book of stream fields, with holes). */
  get templates(): readonly KnownTemplate[] {
    return this.known;
  }

  /**
   * Keeps a template a stream learnt: `raw` is the event it was learnt from, `starts` where each
   * segment starts in it, `parsed` its data parsed. With stream fields, each must be found exactly
   * once, whole, in the template's fixed bytes, or the template is not kept.
   */
  add(template: Template, raw: string, starts: readonly number[], parsed: unknown): void {
    let known: KnownTemplate = { ...template, holes: [] };
    if (this.streamFieldsOf !== undefined) {
      const cut = cutHoles(template, raw, starts, this.streamFieldsOf(parsed));
      if (cut === undefined) return;
      known = cut;
    }
    this.known = [known, ...this.known.filter((t) => !sameTemplate(t, known))].slice(0, BOOK_SIZE);
  }

  /**
   * The templates with the stream fields of `parsed` (an event of a new stream) in their holes; none
   * when it has no usable value for a field.
   */
  filledFor(parsed: unknown): readonly Template[] {
    const values = new Map<string, string>();
    for (const { key, value } of this.streamFieldsOf?.(parsed) ?? []) {
      const json = holeText(value);
      if (json === undefined) return NONE;
      values.set(key, json);
    }
    const filled: Template[] = [];
    for (const known of this.known) {
      if (known.holes.every((h) => values.has(h.key))) filled.push(fill(known, values));
    }
    return filled;
  }
}

/** `template` with the values of `fields` cut out of its segments; undefined when one cannot be. */
function cutHoles(
  template: Template,
  raw: string,
  starts: readonly number[],
  fields: readonly StreamField[] | undefined,
): KnownTemplate | undefined {
  if (fields === undefined) return undefined;
  const spans: { segment: number; start: number; end: number; key: string }[] = [];
  for (const { key, value } of fields) {
    const json = holeText(value);
    const span = json === undefined ? undefined : placeStreamField(raw, key, json);
    if (span === undefined) return undefined;
    // It must lie inside one segment's fixed bytes, not in a text or a pad.
    const segment = template.segments.findIndex((text, i) => {
      const start = starts[i] as number;
      return span.start >= start && span.end <= start + text.length;
    });
    if (segment === -1) return undefined;
    spans.push({
      segment,
      start: span.start - (starts[segment] as number),
      end: span.end - (starts[segment] as number),
      key,
    });
  }
  spans.sort((a, b) => a.segment - b.segment || a.start - b.start);
  const segments = [...template.segments];
  const holes: Hole[] = [];
  for (let i = 0; i < segments.length; i++) {
    const text = segments[i] as string;
    let kept = '';
    let from = 0;
    for (const span of spans) {
      if (span.segment !== i) continue;
      kept += text.slice(from, span.start);
      holes.push({ segment: i, offset: kept.length, key: span.key });
      from = span.end;
    }
    segments[i] = kept + text.slice(from);
  }
  return { segments, textAt: template.textAt, holes };
}

/** A kept template with `values` (JSON text by key) in its holes. */
function fill(known: KnownTemplate, values: ReadonlyMap<string, string>): Template {
  if (known.holes.length === 0) return known;
  const segments = [...known.segments];
  // From the last hole back, so the offsets of the earlier ones in the same segment hold.
  for (let i = known.holes.length - 1; i >= 0; i--) {
    const hole = known.holes[i] as Hole;
    const text = segments[hole.segment] as string;
    segments[hole.segment] =
      text.slice(0, hole.offset) + (values.get(hole.key) as string) + text.slice(hole.offset);
  }
  return { segments, textAt: known.textAt };
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
