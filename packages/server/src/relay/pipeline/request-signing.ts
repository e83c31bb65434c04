// The last step before a call is sent, for adapters that sign it over its final URL, headers and body
// (AWS SigV4): a key that cannot sign is the channel's definitive fault, judged like a refused key.
import type { UpstreamRequest } from '../ir/request.js';
import type { ChannelTarget, ProviderAdapter } from '../providers/types.js';
import { CredentialFailure } from './channel-credentials.js';

/** The call as the adapter signs it; rejects with a definitive CredentialFailure when it cannot. */
export async function signedRequest(
  adapter: ProviderAdapter,
  request: UpstreamRequest,
  channel: ChannelTarget,
): Promise<UpstreamRequest> {
  if (!adapter.signRequest) return request;
  try {
    return await adapter.signRequest(request, channel);
  } catch (error) {
    throw new CredentialFailure(`the channel's key cannot be used: ${(error as Error).message}`, true);
  }
}
