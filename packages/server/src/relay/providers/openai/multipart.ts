// Multipart uploads (audio transcriptions) go upstream as the client sent them; the only change ever
// made is the model field, when a channel maps the model to another name. Pure byte work on the body.

/** The boundary a multipart content type declares, or undefined. */
export function multipartBoundary(contentType: string): string | undefined {
  const match = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  return match?.[1] ?? match?.[2];
}

const CRLF_CRLF = Buffer.from('\r\n\r\n');

/**
 * The body with the value of the text field `name` replaced, other bytes untouched; the body itself
 * when the field is not there (the upstream then reports the missing field as it sees fit).
 */
export function replaceFormField(raw: Buffer, contentType: string, name: string, value: string): Buffer {
  const boundary = multipartBoundary(contentType);
  if (boundary === undefined) return raw;
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  // The first boundary line may start the body (no CRLF before it); the others follow a CRLF.
  const first = raw.indexOf(delimiter.subarray(2));
  let headersStart = first === -1 ? -1 : first + delimiter.length - 2;
  while (headersStart !== -1) {
    const headersEnd = raw.indexOf(CRLF_CRLF, headersStart);
    if (headersEnd === -1) return raw;
    const next = raw.indexOf(delimiter, headersEnd);
    if (next === -1) return raw;
    const headers = raw.subarray(headersStart, headersEnd).toString('latin1');
    const disposition = /content-disposition:[^\r\n]*/i.exec(headers)?.[0] ?? '';
    if (new RegExp(`;\\s*name="${name}"`, 'i').test(disposition) && !/filename=/i.test(disposition)) {
      const contentStart = headersEnd + CRLF_CRLF.length;
      return Buffer.concat([raw.subarray(0, contentStart), Buffer.from(value, 'utf8'), raw.subarray(next)]);
    }
    headersStart = next + delimiter.length;
  }
  return raw;
}
