// Batch creation: the key field may hold several keys, one channel each — one per line, or for
// Vertex (type 41) service-account JSON given as an array or as objects written one after another.
import { MSG } from '@sluice/shared';
import { badRequest } from '../../http/envelope.js';

export const VERTEX_TYPE = 41;

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The top-level `{…}` spans of a text holding JSON objects one after another (whitespace or commas
 * between them), or null when anything else sits outside them or braces do not balance.
 */
export function splitJsonObjects(text: string): string[] | null {
  const spans: string[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  let escaped = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (c === '\\') escaped = true;
      else if (c === '"') inString = false;
      continue;
    }
    if (depth === 0) {
      if (c === '{') {
        depth = 1;
        start = i;
      } else if (c !== undefined && !/[\s,]/.test(c)) {
        return null;
      }
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) spans.push(text.slice(start, i + 1));
  }
  return depth === 0 && !inString ? spans : null;
}

function parseVertexKeys(text: string): string[] {
  let objects: unknown[] | null;
  try {
    if (text.startsWith('[')) {
      const parsed: unknown = JSON.parse(text);
      objects = Array.isArray(parsed) ? parsed : null;
    } else {
      objects = splitJsonObjects(text)?.map((s): unknown => JSON.parse(s)) ?? null;
    }
  } catch {
    objects = null;
  }
  if (!objects || objects.length === 0 || !objects.every(isPlainObject)) {
    throw badRequest(MSG.vertexKeyInvalid);
  }
  // Stored compact: one line per key keeps the stored value independent of how it was pasted.
  return objects.map((o) => JSON.stringify(o));
}

/** The keys a create request holds: one channel is created per returned key. */
export function splitChannelKeys(type: number, key: string): string[] {
  const text = key.trim();
  if (text === '') return [];
  if (type === VERTEX_TYPE) return parseVertexKeys(text);
  return [
    ...new Set(
      text
        .split(/\r?\n/)
        .map((line) => line.trim())
        .filter((line) => line !== ''),
    ),
  ];
}

/** The key an update stores: as given, except that a Vertex key must be exactly one JSON object. */
export function normalizeUpdateKey(type: number, key: string): string {
  if (type !== VERTEX_TYPE) return key.trim();
  const keys = parseVertexKeys(key.trim());
  if (keys.length !== 1) throw badRequest('when editing a channel, the Vertex key must be one JSON object');
  return keys[0] as string;
}
