// JSON helpers every wire codec uses: object checks on untrusted bodies, data URLs, tool arguments.

export type Json = Record<string, unknown>;

export const isRecord = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** The value of a JSON string's content (its escapes undone); undefined when an escape is not valid. */
export function jsonStringValue(content: string): string | undefined {
  try {
    return JSON.parse(`"${content}"`) as string;
  } catch {
    return undefined;
  }
}

export const num = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

/** `data:<media type>[;params];base64,<bytes>` split in two; undefined for anything else (an http URL). */
export function parseDataUrl(url: string): { mediaType: string; data: string } | undefined {
  if (!url.startsWith('data:')) return undefined;
  const comma = url.indexOf(',');
  if (comma === -1) return undefined;
  const params = url.slice(5, comma).split(';');
  if (!params.includes('base64')) return undefined;
  return { mediaType: params[0] || 'application/octet-stream', data: url.slice(comma + 1) };
}

export const dataUrl = (mediaType: string | undefined, data: string): string =>
  `data:${mediaType ?? 'application/octet-stream'};base64,${data}`;

/**
 * A tool call's JSON arguments as the object Anthropic's `input` and Gemini's `args` must be: text that
 * is not JSON, or JSON that is not an object (an empty string from a call without arguments), is {}.
 */
export function toolArguments(argumentsJson: string): Json {
  if (argumentsJson.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(argumentsJson);
    return isRecord(parsed) ? parsed : {};
  } catch {
    return {};
  }
}
