// Chat links (spec part 2 "Chat links"): the configured chat front-end's address with the user's
// token key and this server's address filled in. Pure, so the rules are unit-tested.
import type { PublicStatus } from '@sluice/shared';
import { TOKEN_KEY_PREFIX } from '@sluice/shared';

/** Why no address could be built; each is one of the spec's sentences. */
export type ChatLinkProblem = 'configError' | 'notConfigured' | 'parseFailed';

export type ChatTemplate = { ok: true; template: string } | { ok: false; problem: ChatLinkProblem };

type ChatConfig = Pick<PublicStatus, 'chats' | 'chat_link' | 'chat_link2'>;

/**
 * The address template of /chat/:id (the id-th configured chat front-end), /chat (chat_link) or
 * /chat2link (chat_link2). Each configured chat is an object {name: address}.
 */
export function chatTemplate(config: ChatConfig, target: { id?: string } | 'link2'): ChatTemplate {
  if (target === 'link2' || target.id === undefined) {
    const link = (target === 'link2' ? config.chat_link2 : config.chat_link).trim();
    return link === '' ? { ok: false, problem: 'notConfigured' } : { ok: true, template: link };
  }
  const chats: unknown = config.chats;
  if (!Array.isArray(chats)) return { ok: false, problem: 'parseFailed' };
  if (chats.length === 0) return { ok: false, problem: 'notConfigured' };
  const index = /^\d+$/.test(target.id) ? Number(target.id) : -1;
  const entry: unknown = index >= 0 ? chats[index] : undefined;
  if (entry === undefined) return { ok: false, problem: 'configError' };
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry))
    return { ok: false, problem: 'parseFailed' };
  const link: unknown = Object.values(entry)[0];
  if (typeof link !== 'string') return { ok: false, problem: 'parseFailed' };
  return link.trim() === '' ? { ok: false, problem: 'configError' } : { ok: true, template: link.trim() };
}

/**
 * Fills {key} with "sk-" + the token key and {address} with the server address (the configured
 * server_address, else this page's origin). Both are URL-encoded: they usually sit inside a query
 * string or fragment of the template.
 */
export function fillChatLink(template: string, values: { key: string; address: string }): string {
  return template
    .replaceAll('{key}', encodeURIComponent(`${TOKEN_KEY_PREFIX}${values.key}`))
    .replaceAll('{address}', encodeURIComponent(values.address));
}

/** The address chat front-ends should call: the configured one, else where the console is served. */
export const serverAddress = (configured: string, origin: string): string =>
  configured.trim() !== '' ? configured.trim().replace(/\/+$/, '') : origin;
