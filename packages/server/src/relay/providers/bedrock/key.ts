// The key of an AWS Bedrock channel (type 33): AWS access keys, whose calls are signed with SigV4,
// or a Bedrock API key, sent as a bearer token; each with the region the calls go to.
import { z } from 'zod';

/** The accepted key formats, in the words the channel form and the errors use. */
export const BEDROCK_KEY_FORMATS =
  'AccessKeyId|SecretAccessKey|Region (AWS access keys, requests signed with SigV4) or ' +
  'APIKey|Region (a Bedrock API key)';

export type BedrockCredentials =
  | { kind: 'sigv4'; accessKeyId: string; secretAccessKey: string; region: string }
  | { kind: 'api-key'; apiKey: string; region: string };

/** AWS region names: us-east-1, eu-central-2, ap-southeast-1, us-gov-west-1, … */
const region = z.string().regex(/^[a-z]{2}(-[a-z]+)+-\d{1,2}$/);
/** IAM access key ids are 16 to 128 word characters (AKIA… for long-term keys, ASIA… for temporary ones). */
const accessKeyId = z.string().regex(/^\w{16,128}$/);
const secret = z.string().min(1);

const keySchema = z.union([
  z.tuple([accessKeyId, secret, region]).transform(([id, secretKey, r]): BedrockCredentials => ({
    kind: 'sigv4',
    accessKeyId: id,
    secretAccessKey: secretKey,
    region: r,
  })),
  z
    .tuple([secret, region])
    .transform(([apiKey, r]): BedrockCredentials => ({ kind: 'api-key', apiKey, region: r })),
]);

export class BedrockKeyError extends Error {
  constructor() {
    // Never repeats the key: this message reaches logs and the channel test.
    super(`an AWS Bedrock key is ${BEDROCK_KEY_FORMATS}, e.g. AKIA…|…|us-east-1`);
    this.name = 'BedrockKeyError';
  }
}

/** The credentials in a channel key, or undefined when it fits neither format. */
export function readBedrockKey(key: string): BedrockCredentials | undefined {
  const parsed = keySchema.safeParse(
    key
      .trim()
      .split('|')
      .map((part) => part.trim()),
  );
  return parsed.success ? parsed.data : undefined;
}

/** The credentials in a channel key; throws BedrockKeyError when the key fits neither format. */
export function parseBedrockKey(key: string): BedrockCredentials {
  const credentials = readBedrockKey(key);
  if (!credentials) throw new BedrockKeyError();
  return credentials;
}
