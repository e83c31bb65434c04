// AWS Signature Version 4 over a built Bedrock call, with AWS's own signer (@smithy/signature-v4,
// SHA-256 from @aws-crypto/sha256-js), service "bedrock": the signature covers the URL, the headers
// and the body bytes exactly as they are sent.
// The signer loads on first use: a gateway without Bedrock channels never pays for it in memory.
import type { UpstreamRequest } from '../../ir/request.js';

export const BEDROCK_SIGNING_SERVICE = 'bedrock';

export interface AwsKeys {
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
}

/** The request with `authorization`, `x-amz-date` and `x-amz-content-sha256` added; `now` for tests. */
export async function signBedrockRequest(
  request: UpstreamRequest,
  keys: AwsKeys,
  now: Date = new Date(),
): Promise<UpstreamRequest> {
  const [{ Sha256 }, { SignatureV4 }] = await Promise.all([
    import('@aws-crypto/sha256-js'),
    import('@smithy/signature-v4'),
  ]);
  const url = new URL(request.url);
  const body = typeof request.body === 'string' ? Buffer.from(request.body) : request.body;
  const signer = new SignatureV4({
    service: BEDROCK_SIGNING_SERVICE,
    region: keys.region,
    credentials: { accessKeyId: keys.accessKeyId, secretAccessKey: keys.secretAccessKey },
    sha256: Sha256,
  });
  const signed = await signer.sign(
    {
      method: request.method,
      protocol: url.protocol,
      hostname: url.hostname,
      port: url.port === '' ? undefined : Number(url.port),
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: Object.assign({ host: url.host }, request.headers),
      body,
    },
    { signingDate: now },
  );
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(signed.headers)) headers[name] = String(value);
  return { url: request.url, method: request.method, headers, body };
}
