// A Vertex channel's key: one Google service-account key file (the JSON the Cloud console hands out),
// stored compact as the channel's key. Parsed with a schema so a wrong file is named clearly.
import { z } from 'zod';

const nonEmpty = (field: string) =>
  z.string({ error: `it has no "${field}"` }).min(1, { error: `its "${field}" is empty` });

/** The fields of a service-account key file the relay uses; the file's other fields pass. */
const serviceAccountSchema = z.looseObject({
  project_id: nonEmpty('project_id'),
  private_key_id: z.string().optional(),
  private_key: nonEmpty('private_key').refine((pem) => pem.includes('PRIVATE KEY'), {
    error: 'its "private_key" is not a PEM private key',
  }),
  client_email: nonEmpty('client_email'),
  token_uri: z.url({
    protocol: /^https?$/,
    error: 'its "token_uri" is not an http(s) URL',
  }),
});

export type ServiceAccount = z.infer<typeof serviceAccountSchema>;

/**
 * The service account in a channel's key; throws an Error whose message tells the operator what is
 * wrong with the key.
 */
export function parseServiceAccount(key: string): ServiceAccount {
  let parsed: unknown;
  try {
    parsed = JSON.parse(key);
  } catch {
    throw new Error('the Vertex key is not JSON: give the service account key file (JSON)');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new Error('the Vertex key is not a JSON object: give one service account key file');
  }
  const type = (parsed as Record<string, unknown>).type;
  if (type !== 'service_account') {
    const found = typeof type === 'string' ? `its type is "${type}"` : 'it has no "type"';
    throw new Error(`the Vertex key is not a service account key (${found}, not "service_account")`);
  }
  const checked = serviceAccountSchema.safeParse(parsed);
  if (!checked.success) {
    const problem = checked.error.issues[0]?.message ?? 'it is not valid';
    throw new Error(`the Vertex service account key cannot be used: ${problem}`);
  }
  return checked.data;
}
