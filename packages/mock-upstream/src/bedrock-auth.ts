// AWS Bedrock's authentication as the mock plays AWS: a SigV4-signed request is checked by signing it
// again with AWS's own signer (@smithy/signature-v4, service "bedrock") and the secret of the access
// key it names, then comparing signatures; a Bedrock API key comes as `Authorization: Bearer`. Every
// refusal is a 403 in Bedrock's error shape, with the exception name AWS gives it.
import { createHash } from 'node:crypto';
import { Sha256 } from '@aws-crypto/sha256-js';
import { SignatureV4 } from '@smithy/signature-v4';
import type { AuthCheck } from './auth.js';
import type { Exchange } from './exchange.js';
import { sendBedrockError } from './vendor-errors.js';

export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
}

/** The access key the mock knows unless told others (startMockUpstream's `bedrockCredentials`). */
export const MOCK_AWS_CREDENTIALS: Readonly<AwsCredentials> = {
  accessKeyId: 'AKIAMOCKMOCKMOCK',
  secretAccessKey: 'mockSecretAccessKey/0123456789+abcdefghij',
};

/** Access key id → secret. */
export type AwsKeyring = ReadonlyMap<string, string>;

export const awsKeyring = (credentials: readonly AwsCredentials[]): AwsKeyring =>
  new Map(credentials.map((c) => [c.accessKeyId, c.secretAccessKey]));

/** AWS refuses a request dated more than 15 minutes from its own clock. */
const MAX_SKEW_MS = 15 * 60_000;

const SIGNATURE_MISMATCH =
  'The request signature we calculated does not match the signature you provided. Check your AWS ' +
  'Secret Access Key and signing method. Consult the service documentation for details.';
const INVALID_TOKEN = 'The security token included in the request is invalid.';

const AUTHORIZATION =
  /^AWS4-HMAC-SHA256 Credential=([^/\s]+)\/(\d{8})\/([^/\s]+)\/([^/\s]+)\/aws4_request,\s*SignedHeaders=([a-z0-9;-]+),\s*Signature=([0-9a-f]{64})$/;

const refuse = (type: string, message: string): AuthCheck => ({
  ok: false,
  refuse: (ex) => sendBedrockError(ex, 403, message, type),
});

function header(ex: Exchange, name: string): string | undefined {
  const value = ex.req.headers[name];
  return Array.isArray(value) ? value.join(',') : value;
}

/** x-amz-date (20240102T030405Z) as a Date. */
function amzDate(value: string): Date | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s] = m.map(Number) as number[];
  return new Date(Date.UTC(y as number, (mo as number) - 1, d, h, mi, s));
}

/** The query as the signer reads it, from the raw URL (repeated names keep every value). */
function rawQuery(url: string): Record<string, string | string[]> {
  const mark = url.indexOf('?');
  const query: Record<string, string | string[]> = {};
  if (mark < 0) return query;
  for (const [name, value] of new URLSearchParams(url.slice(mark + 1))) {
    const seen = query[name];
    query[name] = seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value];
  }
  return query;
}

async function checkSignature(
  ex: Exchange,
  raw: Buffer,
  authorization: string,
  keys: AwsKeyring,
): Promise<AuthCheck> {
  const parts = AUTHORIZATION.exec(authorization);
  if (!parts) {
    return refuse(
      'IncompleteSignatureException',
      `Authorization header requires 'Credential', 'SignedHeaders' and 'Signature' parameters. Authorization=${authorization.split(' ')[0]}`,
    );
  }
  const [, accessKeyId = '', day = '', region = '', service = '', signedHeaders = '', signature = ''] = parts;
  const secret = keys.get(accessKeyId);
  if (secret === undefined) return refuse('UnrecognizedClientException', INVALID_TOKEN);
  if (service !== 'bedrock') {
    return refuse('InvalidSignatureException', `Credential should be scoped to correct service: 'bedrock'.`);
  }
  const dated = header(ex, 'x-amz-date') ?? '';
  const date = amzDate(dated);
  if (!date) return refuse('IncompleteSignatureException', 'Missing or invalid X-Amz-Date header.');
  if (!dated.startsWith(day)) {
    return refuse(
      'InvalidSignatureException',
      `Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date from HTTP: '${day}' != '${dated.slice(0, 8)}'.`,
    );
  }
  if (Math.abs(Date.now() - date.getTime()) > MAX_SKEW_MS) {
    return refuse(
      'InvalidSignatureException',
      `Signature expired: ${dated} is now earlier or later than 15 minutes from now.`,
    );
  }
  // The signer takes a sent x-amz-content-sha256 as the body's hash; AWS hashes the body it received.
  const sentHash = header(ex, 'x-amz-content-sha256');
  if (sentHash !== undefined && sentHash !== createHash('sha256').update(raw).digest('hex')) {
    return refuse('InvalidSignatureException', SIGNATURE_MISMATCH);
  }
  const names = signedHeaders.split(';');
  const headers: Record<string, string> = {};
  for (const name of names) {
    const value = header(ex, name);
    if (value === undefined) return refuse('InvalidSignatureException', SIGNATURE_MISMATCH);
    headers[name] = value;
  }
  const signer = new SignatureV4({
    service,
    region,
    credentials: { accessKeyId, secretAccessKey: secret },
    sha256: Sha256,
    // A sent x-amz-content-sha256 is among the headers already; the signer must not add one.
    applyChecksum: false,
  });
  const url = ex.req.url ?? '/';
  const resigned = await signer.sign(
    {
      method: ex.req.method ?? 'POST',
      protocol: 'http:',
      hostname: (headers.host ?? '').replace(/:\d+$/, ''),
      path: url.split('?')[0] ?? '/',
      query: rawQuery(url),
      headers,
      body: raw,
    },
    { signingDate: date, signableHeaders: new Set(names) },
  );
  const expected = String(resigned.headers.authorization ?? '');
  if (!expected.endsWith(`SignedHeaders=${signedHeaders}, Signature=${signature}`)) {
    return refuse('InvalidSignatureException', SIGNATURE_MISMATCH);
  }
  return { ok: true, key: accessKeyId };
}

/**
 * Who may call the Bedrock routes: a SigV4 signature that verifies with a known access key, or a
 * Bedrock API key as a bearer token (any, except one starting with "bad": a revoked key).
 */
export async function checkBedrockAuth(ex: Exchange, raw: Buffer, keys: AwsKeyring): Promise<AuthCheck> {
  const authorization = header(ex, 'authorization')?.trim() ?? '';
  if (authorization === '')
    return refuse('MissingAuthenticationTokenException', 'Missing Authentication Token');
  if (/^bearer /i.test(authorization)) {
    const key = authorization.slice(7).trim();
    if (key === '' || key.startsWith('bad')) return refuse('UnrecognizedClientException', INVALID_TOKEN);
    return { ok: true, key };
  }
  return checkSignature(ex, raw, authorization, keys);
}
