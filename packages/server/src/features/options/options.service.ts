// Changing site options: per-key validation from the registry, then the rules that tie keys together
// (a sign-in method cannot be switched on before its credentials are filled in).
import {
  DEFAULT_COMPLETION_RATIO,
  DEFAULT_GROUP,
  DEFAULT_MODEL_RATIO,
  MSG,
  OPTION_ALIASES,
  OPTION_DEFS,
  OPTION_KEYS,
  isSecretOption,
  parseOptionValue,
  resolveOptionKey,
} from '@sluice/shared';
import type { OptionDef, OptionEntry, OptionKey, OptionValue } from '@sluice/shared';
import type { AppContext } from '../../app-context.js';
import { badRequest } from '../../http/envelope.js';
import type { OptionStore } from './option-store.js';

/**
 * Every option the console may see: stored or default, secrets left out entirely. Aliases follow with
 * the value of the option they name, for consoles that read an option under its other name.
 */
export function listOptions(options: OptionStore): OptionEntry[] {
  const entries: OptionEntry[] = OPTION_KEYS.filter((key) => !isSecretOption(key)).map((key) => ({
    key,
    value: options.raw(key),
  }));
  for (const [alias, key] of Object.entries(OPTION_ALIASES)) {
    if (!isSecretOption(key)) entries.push({ key: alias, value: options.raw(key) });
  }
  return entries;
}

/** GET /api/group/: the groups that have a ratio. */
export const groupNames = (options: OptionStore): string[] => Object.keys(options.get('GroupRatio'));

type Rule = (value: unknown, options: OptionStore) => string | null;

const isFilled = (options: OptionStore, key: OptionKey) => options.raw(key).trim() !== '';

/** Switching `value` on needs every one of `keys` filled in. */
const switchNeeds =
  (keys: OptionKey[], message: string): Rule =>
  (value, options) =>
    value === true && !keys.every((key) => isFilled(options, key)) ? message : null;

/** Payment gateway settings are useless without the address the gateway calls back. */
const paymentNeedsServerAddress: Rule = (value, options) =>
  typeof value === 'string' && value !== '' && !isFilled(options, 'ServerAddress')
    ? MSG.fillServerAddressFirst
    : null;

/**
 * Rules that look at other keys. Only switching something on (or filling a payment setting) is
 * checked: clearing a credential is always allowed, so a leaked secret can be wiped at once.
 */
const CROSS_KEY_RULES: Partial<Record<OptionKey, Rule>> = {
  GitHubOAuthEnabled: switchNeeds(['GitHubClientId', 'GitHubClientSecret'], MSG.oauthNeedsClientId('GitHub')),
  LinuxDOOAuthEnabled: switchNeeds(
    ['LinuxDOClientId', 'LinuxDOClientSecret'],
    MSG.oauthNeedsClientId('LinuxDO'),
  ),
  WeChatAuthEnabled: switchNeeds(['WeChatServerAddress'], MSG.wechatNeedsServer),
  TelegramOAuthEnabled: switchNeeds(['TelegramBotToken', 'TelegramBotName'], MSG.telegramNeedsBot),
  TurnstileCheckEnabled: switchNeeds(['TurnstileSiteKey', 'TurnstileSecretKey'], MSG.turnstileNeedsKeys),
  EmailVerificationEnabled: switchNeeds(['SMTPServer'], MSG.emailVerificationNeedsSmtp),
  PayAddress: paymentNeedsServerAddress,
  EpayId: paymentNeedsServerAddress,
  EpayKey: paymentNeedsServerAddress,
  // New accounts always join 'default'; without its ratio their calls would have no price.
  GroupRatio: (value) =>
    typeof value === 'object' && value !== null && !Object.hasOwn(value, DEFAULT_GROUP)
      ? MSG.groupRatioNeedsDefault
      : null,
};

/**
 * The stored string for a value: numbers in canonical form (" 5" and "5.0" become "5"), everything
 * else exactly as sent.
 */
function wireForm<K extends OptionKey>(key: K, value: string, parsed: OptionValue<K>): string {
  const kind = OPTION_DEFS[key].kind;
  return kind === 'int' || kind === 'number' ? String(parsed) : value;
}

/**
 * Validates one key/value pair and returns the registry key (an alias resolved) and the string to
 * store; throws a 400 with the reason.
 */
export function validateOption(
  options: OptionStore,
  name: string,
  value: string,
): { key: OptionKey; stored: string } {
  const key = resolveOptionKey(name);
  if (key === undefined) throw badRequest(MSG.unknownOption(name));
  const parsed = parseOptionValue(key, value);
  if (!parsed.ok) {
    // Sentences written for this key (invalid JSON, the top-up ratio) stand alone; the generic
    // ones ("must be at least 1") need the key named.
    const def: OptionDef = OPTION_DEFS[key];
    const standalone = parsed.message === MSG.notValidJson || def.invalidMessage !== undefined;
    throw badRequest(standalone ? parsed.message : `${name}: ${parsed.message}`);
  }
  const problem = CROSS_KEY_RULES[key]?.(parsed.value, options);
  if (problem) throw badRequest(problem);
  return { key, stored: wireForm(key, value, parsed.value) };
}

/** PUT /api/option/: validates, stores and applies the value before answering. */
export async function updateOption(ctx: AppContext, name: string, value: string): Promise<void> {
  const { key, stored } = validateOption(ctx.options, name, value);
  // set() refreshes this node's copy before it returns, so the next request sees the new value.
  await ctx.options.set(key, stored);
}

/** POST /api/option/rest_model_ratio: back to the registry's price tables. */
export async function resetModelRatios(ctx: AppContext): Promise<void> {
  await ctx.options.set('ModelRatio', JSON.stringify(DEFAULT_MODEL_RATIO));
  await ctx.options.set('CompletionRatio', JSON.stringify(DEFAULT_COMPLETION_RATIO));
}
