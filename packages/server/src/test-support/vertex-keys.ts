// Service-account key files for Vertex tests: a fresh RSA key pair per account, the key file as the
// Cloud console writes it (its private key in PKCS#8 PEM), and the public half for the mock upstream.
import { generateKeyPairSync } from 'node:crypto';
import type { MockUpstream, VertexServiceAccount } from '@sluice/mock-upstream';

export interface TestServiceAccount {
  /** The key file, as a channel stores it (compact JSON). */
  key: string;
  file: Record<string, string>;
  clientEmail: string;
  projectId: string;
  privateKeyId: string;
  publicKeyPem: string;
  privateKeyPem: string;
}

let counter = 0;

export function testServiceAccount(
  tokenUri: string,
  options: { projectId?: string; name?: string } = {},
): TestServiceAccount {
  counter += 1;
  const projectId = options.projectId ?? 'sluice-test';
  const name = options.name ?? `relay-${counter}`;
  const clientEmail = `${name}@${projectId}.iam.gserviceaccount.com`;
  const privateKeyId = `${counter.toString(16).padStart(8, '0')}c0ffee${Date.now().toString(16)}`;
  const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const privateKeyPem = pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const publicKeyPem = pair.publicKey.export({ type: 'spki', format: 'pem' }).toString();
  const file = {
    type: 'service_account',
    project_id: projectId,
    private_key_id: privateKeyId,
    private_key: privateKeyPem,
    client_email: clientEmail,
    client_id: '104467382910293847561',
    auth_uri: 'https://accounts.google.com/o/oauth2/auth',
    token_uri: tokenUri,
    auth_provider_x509_cert_url: 'https://www.googleapis.com/oauth2/v1/certs',
    client_x509_cert_url: `https://www.googleapis.com/robot/v1/metadata/x509/${encodeURIComponent(clientEmail)}`,
    universe_domain: 'googleapis.com',
  };
  return {
    key: JSON.stringify(file),
    file,
    clientEmail,
    projectId,
    privateKeyId,
    publicKeyPem,
    privateKeyPem,
  };
}

/** What the mock upstream must know of an account to verify its JWTs and issue it tokens. */
export const mockVertexAccount = (account: TestServiceAccount): VertexServiceAccount => ({
  clientEmail: account.clientEmail,
  publicKeyPem: account.publicKeyPem,
  projectId: account.projectId,
  privateKeyId: account.privateKeyId,
});

/** A fresh account that the mock upstream knows, with the mock's token endpoint in its key file. */
export function registerServiceAccount(
  mock: MockUpstream,
  options: { projectId?: string } = {},
): TestServiceAccount {
  const account = testServiceAccount(`${mock.url}/token`, options);
  mock.setVertexServiceAccount(mockVertexAccount(account));
  return account;
}
