// How a token reads in the table (spec part 2 §4) and where its chat links point (§7 "Chat links").
// Pure, so the rules are tested without rendering.
import { TOKEN_KEY_PREFIX, TOKEN_STATUS } from '@sluice/shared';
import type { TokenView } from '@sluice/shared';

export type TokenStatusLabel =
  'enabled' | 'enabledLimited' | 'disabled' | 'expired' | 'exhausted' | 'unknown';

export function tokenStatusLabel(
  token: Pick<TokenView, 'status' | 'model_limits_enabled'>,
): TokenStatusLabel {
  switch (token.status) {
    case TOKEN_STATUS.enabled:
      return token.model_limits_enabled ? 'enabledLimited' : 'enabled';
    case TOKEN_STATUS.disabled:
      return 'disabled';
    case TOKEN_STATUS.expired:
      return 'expired';
    case TOKEN_STATUS.exhausted:
      return 'exhausted';
    default:
      return 'unknown';
  }
}

export const fullKey = (key: string): string => `${TOKEN_KEY_PREFIX}${key}`;

export interface ChatLink {
  name: string;
  /** null when the configured template is unusable. */
  url: string | null;
}

/**
 * The configured chat front-ends (status `chats`: [{name: template}]) with {key} replaced by the
 * full key and {address} by the server address (or this console's origin). The address is encoded:
 * templates carry it inside a query string or fragment.
 */
export function chatLinks(chats: Array<Record<string, string>>, key: string, address: string): ChatLink[] {
  const links: ChatLink[] = [];
  for (const chat of chats) {
    const [name, template] = Object.entries(chat)[0] ?? [];
    if (!name) continue;
    links.push({
      name,
      url:
        typeof template === 'string' && template.trim() !== ''
          ? template.replaceAll('{key}', fullKey(key)).replaceAll('{address}', encodeURIComponent(address))
          : null,
    });
  }
  return links;
}
