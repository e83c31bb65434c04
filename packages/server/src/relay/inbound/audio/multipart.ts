// Multipart uploads (audio transcriptions and translations): the body is kept as received, to be
// forwarded byte for byte, and its text fields are read so the call can be priced and routed.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { RelayError } from '../../ir/errors.js';

/** OpenAI's own upload limit for audio files. */
export const MAX_UPLOAD_BYTES = 25 * 1024 * 1024;

/** A parsed multipart body: its text fields and what the file fields held. */
export class MultipartForm {
  constructor(
    readonly contentType: string,
    readonly fields: Readonly<Record<string, string>>,
    readonly files: ReadonlyArray<{ field: string; size: number }>,
  ) {}
}

export async function readMultipart(raw: Buffer, contentType: string): Promise<MultipartForm> {
  let form: FormData;
  try {
    // Node's Buffers from the HTTP parser sit on a plain ArrayBuffer, which is what Response takes.
    form = await new Response(raw as Uint8Array<ArrayBuffer>, {
      headers: { 'content-type': contentType },
    }).formData();
  } catch {
    throw new RelayError(400, 'the request body is not a valid multipart form', 'invalid_request');
  }
  const fields: Record<string, string> = {};
  const files: { field: string; size: number }[] = [];
  for (const [name, value] of form.entries()) {
    if (typeof value === 'string') fields[name] = value;
    else files.push({ field: name, size: value.size });
  }
  return new MultipartForm(contentType, fields, files);
}

/** Accepts multipart bodies up to MAX_UPLOAD_BYTES in this scope, keeping the bytes in rawBody. */
export function installMultipartParser(scope: FastifyInstance): void {
  scope.addContentTypeParser(
    'multipart/form-data',
    { parseAs: 'buffer', bodyLimit: MAX_UPLOAD_BYTES },
    async (req: FastifyRequest, raw: Buffer) => {
      req.rawBody = raw;
      return readMultipart(raw, String(req.headers['content-type']));
    },
  );
}
