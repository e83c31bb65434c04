// Request bodies: JSON, or multipart forms (audio uploads) parsed with the platform's FormData support.

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** An uploaded file as the mock records it. */
export interface UploadedFile {
  filename: string;
  size: number;
  type: string;
}

export const isUploadedFile = (value: unknown): value is UploadedFile =>
  isRecord(value) && typeof value.filename === 'string' && typeof value.size === 'number';

export type ParsedBody = { ok: true; body: unknown } | { ok: false; reason: string };

/**
 * Multipart forms become a plain object: text fields as strings, files as {@link UploadedFile}.
 * Only the audio routes take forms, so speed matters less here than on the JSON path.
 */
async function parseForm(raw: Buffer, contentType: string): Promise<ParsedBody> {
  try {
    const form = await new Response(new Uint8Array(raw), {
      headers: { 'content-type': contentType },
    }).formData();
    const fields: Record<string, unknown> = {};
    for (const [name, value] of form.entries()) {
      fields[name] =
        typeof value === 'string' ? value : { filename: value.name, size: value.size, type: value.type };
    }
    return { ok: true, body: fields };
  } catch {
    return { ok: false, reason: 'The multipart form of the request could not be parsed.' };
  }
}

export async function parseBody(raw: Buffer, contentType: string | undefined): Promise<ParsedBody> {
  if (raw.length === 0) return { ok: true, body: undefined };
  if (contentType?.startsWith('multipart/form-data')) return parseForm(raw, contentType);
  // OAuth token requests (Vertex's service-account grant) post their fields URL-encoded.
  if (contentType?.startsWith('application/x-www-form-urlencoded')) {
    return { ok: true, body: Object.fromEntries(new URLSearchParams(raw.toString('utf8'))) };
  }
  // Like the real API, any other body is read as JSON whatever its declared type.
  try {
    return { ok: true, body: JSON.parse(raw.toString('utf8')) as unknown };
  } catch {
    return { ok: false, reason: 'We could not parse the JSON body of your request.' };
  }
}
