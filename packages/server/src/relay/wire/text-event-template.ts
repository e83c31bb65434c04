// Most events of a chat stream are alike but for their text: an OpenAI chunk repeats its id, model and
// choice around `"content":"…"`, an Anthropic text delta its type and index around `"text":"…"`. Once a
// decoder has parsed one such event, the template keeps the data around its text; a later event with
// exactly that data around a valid JSON string is that same event with another text, read by comparing
// strings instead of parsing it again. A field that changes in every event without meaning anything (the
// `obfuscation` pad OpenAI adds to each chunk) may be a string of any content too. Anything else (other
// events, another field order, escapes the template cannot vouch for) is left to the decoder's parse.

const QUOTE = 0x22;
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

/**
 * Finds `"key":"value"` (the value as JSON.stringify writes it) exactly once in `data`; undefined when
 * it is not there (the upstream escaped it another way) or is there more than once.
 */
function place(data: string, key: string, value: string): Placed | undefined {
  const needle = `"${key}":${JSON.stringify(value)}`;
  const at = data.indexOf(needle);
  if (at === -1 || data.lastIndexOf(needle) !== at) return undefined;
  return { key, open: at + key.length + 3, close: at + needle.length - 1 };
}

/** Set by `stringEnd` when the string it scanned holds an escape. */
let sawEscape = false;

/**
 * The offset of the closing quote of the JSON string whose content starts at `start`, or -1 when its
 * content is not valid: a control character, or a backslash at the very end.
 */
function stringEnd(data: string, start: number): number {
  sawEscape = false;
  for (let i = start; i < data.length; i++) {
    const code = data.charCodeAt(i);
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
 * Whether `data` holds `part` at `at`. A slice and `===` compare the characters in one block, where
 * `startsWith` went through them one by one (measured: about 35 ns against 350 ns for 180 characters).
 */
const holdsAt = (data: string, at: number, part: string): boolean =>
  data.slice(at, at + part.length) === part;

/** A string's value, its escapes checked and undone; undefined when an escape is not valid JSON. */
function unescaped(data: string, start: number, end: number): string | undefined {
  try {
    return JSON.parse(data.slice(start - 1, end + 1)) as string;
  } catch {
    return undefined;
  }
}

export class TextEventTemplate {
  /**
   * The event's fixed text: before the first string value (with its opening quote), between each
   * value and the next (from a closing quote to the next opening one), and after the last.
   */
  private segments: string[] | undefined;
  /** Which of the string values is the text (the others are padding). */
  private textAt = 0;
  /** The SSE event name the template's event came with (Anthropic names every event). */
  private eventName: string | undefined;
  private misses = 0;

  /**
   * @param key the field whose string value is the event's text (`content`, `text`)
   * @param fieldsOf the text a parsed event carries when it is a plain text event, with its padding
   *   fields (the decoder's own reading: undefined for any event that means more than its text)
   */
  constructor(
    private readonly key: string,
    private readonly fieldsOf: (parsed: unknown) => TemplateFields | undefined,
  ) {}

  /** Whether the decoder may stop offering events to learn from. */
  get settled(): boolean {
    return this.segments !== undefined || this.misses >= MAX_MISSES;
  }

  /**
   * Takes a parsed event as the template when it is a plain text event whose text (and padding) can
   * be found in its data exactly once each. Called by the decoder after a full parse, until settled.
   */
  learn(data: string, parsed: unknown, eventName: string | undefined): void {
    if (this.settled) return;
    const fields = this.fieldsOf(parsed);
    if (fields === undefined || fields.text === '') return;
    const placed: Placed[] = [];
    for (const { key, value } of [{ key: this.key, value: fields.text }, ...fields.padding]) {
      const found = place(data, key, value);
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
      segments.push(data.slice(from, value.open + 1));
      const replacement = JSON.stringify(value.key === this.key ? PROBE : 'x');
      probe += data.slice(from === 0 ? 0 : from + 1, value.open) + replacement;
      from = value.close;
    }
    segments.push(data.slice(from));
    probe += data.slice(from + 1);
    let reread: TemplateFields | undefined;
    try {
      reread = this.fieldsOf(JSON.parse(probe));
    } catch {
      reread = undefined;
    }
    if (reread?.text !== PROBE) {
      this.misses++;
      return;
    }
    this.segments = segments;
    this.textAt = placed.findIndex((p) => p.key === this.key);
    this.eventName = eventName;
  }

  /**
   * The text of an event that matches the template; undefined when it does not (the decoder parses
   * it). A match is the template's event with another text (and padding), so it means nothing else.
   */
  read(data: string, eventName: string | undefined): string | undefined {
    const segments = this.segments;
    if (segments === undefined || eventName !== this.eventName) return undefined;
    if (!holdsAt(data, 0, segments[0] as string)) return undefined;
    let at = (segments[0] as string).length;
    let text: string | undefined;
    for (let i = 1; i < segments.length; i++) {
      const segment = segments[i] as string;
      const end = stringEnd(data, at);
      if (end === -1 || !holdsAt(data, end, segment)) return undefined;
      if (i - 1 === this.textAt) {
        text = sawEscape ? unescaped(data, at, end) : data.slice(at, end);
        if (text === undefined) return undefined;
      } else if (sawEscape && unescaped(data, at, end) === undefined) {
        return undefined;
      }
      at = end + segment.length;
    }
    return at === data.length ? text : undefined;
  }
}
