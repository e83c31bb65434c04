// The typed registry of every option key: how its stored string parses, its default, and whether it
// is a secret that GET /api/option/ never returns. Values travel as strings (the spec's wire form).
import { z } from 'zod';
import { isHttpUrl } from '../http-url.js';
import { MSG } from '../messages.js';
import {
  DEFAULT_CHATS,
  DEFAULT_COMPLETION_RATIO,
  DEFAULT_GROUP_RATIO,
  DEFAULT_MODEL_PRICE,
  DEFAULT_MODEL_RATIO,
  DEFAULT_USER_USABLE_GROUPS,
} from './default-prices.js';
import { DEFAULT_CACHE_RATIO } from '../billing/default-cache-ratio.js';
import { DEFAULT_CREATE_CACHE_RATIO } from '../billing/default-create-cache-ratio.js';

export type OptionKind = 'bool' | 'int' | 'number' | 'string' | 'json';

export interface OptionDef<T = unknown> {
  kind: OptionKind;
  /** Parses the stored string into the typed value; failure means the value is invalid. */
  parse: z.ZodType<T, string>;
  default: string;
  /** Never sent to the browser (GET /api/option/ leaves the key out). */
  secret?: boolean;
  /** One sentence for any invalid value, when the spec words this key's error itself. */
  invalidMessage?: string;
}

const boolFromString = z
  .enum(['true', 'false'], { error: 'must be true or false' })
  .transform((v) => v === 'true');

const bool = (def: boolean): OptionDef<boolean> => ({
  kind: 'bool',
  parse: boolFromString,
  default: String(def),
});

const numberFromString = (opts: { int: boolean; min: number; max?: number; positive?: boolean }) =>
  z
    .string()
    .trim()
    .refine((s) => s !== '' && Number.isFinite(Number(s)), { error: 'must be a number' })
    .transform(Number)
    .refine((n) => !opts.int || Number.isInteger(n), { error: 'must be an integer' })
    .refine((n) => n >= opts.min, { error: `must be at least ${opts.min}` })
    .refine((n) => !opts.positive || n > 0, { error: 'must be greater than 0' })
    .refine((n) => opts.max === undefined || n <= opts.max, { error: `must be at most ${opts.max}` });

const int = (def: number, min = 0, max?: number): OptionDef<number> => ({
  kind: 'int',
  parse: numberFromString({ int: true, min, ...(max === undefined ? {} : { max }) }),
  default: String(def),
});
const num = (def: number, min = 0): OptionDef<number> => ({
  kind: 'number',
  parse: numberFromString({ int: false, min }),
  default: String(def),
});
const positive = (def: number): OptionDef<number> => ({
  kind: 'number',
  parse: numberFromString({ int: false, min: 0, positive: true }),
  default: String(def),
});
const str = (def = '', secret = false): OptionDef<string> => ({
  kind: 'string',
  parse: z.string(),
  default: def,
  ...(secret ? { secret: true } : {}),
});

const jsonFromString = <T>(schema: z.ZodType<T>) =>
  z.string().transform((s, ctx): T => {
    let raw: unknown;
    try {
      raw = JSON.parse(s);
    } catch {
      ctx.addIssue({ code: 'custom', message: MSG.notValidJson });
      return z.NEVER;
    }
    const parsed = schema.safeParse(raw);
    if (!parsed.success) {
      ctx.addIssue({ code: 'custom', message: parsed.error.issues[0]?.message ?? 'invalid value' });
      return z.NEVER;
    }
    return parsed.data;
  });

const json = <T>(schema: z.ZodType<T>, def: T): OptionDef<T> => ({
  kind: 'json',
  parse: jsonFromString(schema),
  default: JSON.stringify(def),
});

const nonNegative = z
  .number({ error: 'every value must be a number' })
  .min(0, { error: 'values must not be negative' });
const ratioTable = z.record(z.string(), nonNegative, { error: 'must be a JSON object of name → number' });

/** Text of one entry per line, read as the list of its non-blank lines, trimmed. */
const keywordLines = (def: readonly string[]): OptionDef<string[]> => ({
  kind: 'string',
  parse: z.string().transform((text) =>
    text
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== ''),
  ),
  default: def.join('\n'),
});

/** An absolute http(s) address, or empty for none. */
const link = (): OptionDef<string> => ({
  kind: 'string',
  parse: z.string().refine((s) => s === '' || isHttpUrl(s), { error: 'must be an http(s) address or empty' }),
  default: '',
});

/** The largest request count or window accepted (new-api stores them as 32-bit integers). */
const MAX_REQUEST_COUNT = 2_147_483_647;
const requestLimitsMessage =
  'must be a JSON object of group → [total requests (0 = no limit), successful requests (at least 1)]';
const requestCount = (min: number) =>
  z
    .number({ error: requestLimitsMessage })
    .int({ error: requestLimitsMessage })
    .min(min, { error: requestLimitsMessage })
    .max(MAX_REQUEST_COUNT, { error: requestLimitsMessage });
/** ModelRequestRateLimitGroup: per group, [total requests, successful requests] per window. */
const requestLimitsByGroup = z.record(
  z.string(),
  z.tuple([requestCount(0), requestCount(1)], { error: requestLimitsMessage }),
  { error: requestLimitsMessage },
);

/**
 * Phrases vendors put in the error of a key or account that cannot serve until someone pays, signs a
 * contract or changes the key; matched case-insensitively inside an upstream's error message.
 */
export const DEFAULT_AUTOMATIC_DISABLE_KEYWORDS: readonly string[] = [
  // Anthropic: the prepaid balance is used up.
  'Your credit balance is too low',
  // OpenAI: the organisation was shut, the quota is used up, the key was turned off.
  'This organization has been disabled.',
  'You exceeded your current quota',
  'The OpenAI account associated with this API key has been deactivated',
  // Google (Gemini, Vertex): the key or the service account lacks rights, or is no key at all.
  'Permission denied',
  'API key not valid',
  'API key expired',
  // AWS Bedrock: the credentials are wrong or the account may not use the model.
  'The security token included in the request is invalid',
  'Operation not allowed',
  'Your account is not authorized',
  // Alibaba DashScope: the account is in arrears.
  'Access denied, please make sure your account is in good standing',
];

export const OPTION_DEFS = {
  // Server and payment
  ServerAddress: str(''),
  WorkerUrl: str(''),
  WorkerValidKey: str('', true),
  PayAddress: str(''),
  EpayId: str(''),
  EpayKey: str('', true),
  CustomCallbackAddress: str(''),
  Price: num(7.3),
  MinTopUp: int(1, 1),
  TopupGroupRatio: {
    ...json(ratioTable, { default: 1, vip: 1, svip: 1 }),
    invalidMessage: MSG.topupGroupRatioInvalid,
  },
  // Login
  PasswordLoginEnabled: bool(true),
  PasswordRegisterEnabled: bool(true),
  EmailVerificationEnabled: bool(false),
  GitHubOAuthEnabled: bool(false),
  GitHubClientId: str(''),
  GitHubClientSecret: str('', true),
  LinuxDOOAuthEnabled: bool(false),
  LinuxDOClientId: str(''),
  LinuxDOClientSecret: str('', true),
  WeChatAuthEnabled: bool(false),
  WeChatServerAddress: str(''),
  WeChatServerToken: str('', true),
  WeChatAccountQRCodeImageURL: str(''),
  TelegramOAuthEnabled: bool(false),
  TelegramBotToken: str('', true),
  TelegramBotName: str(''),
  TurnstileCheckEnabled: bool(false),
  TurnstileSiteKey: str(''),
  TurnstileSecretKey: str('', true),
  RegisterEnabled: bool(true),
  // Email
  EmailDomainRestrictionEnabled: bool(false),
  EmailAliasRestrictionEnabled: bool(false),
  EmailDomainWhitelist: str(
    'gmail.com,163.com,126.com,qq.com,outlook.com,hotmail.com,icloud.com,yahoo.com,foxmail.com',
  ),
  SMTPServer: str(''),
  SMTPPort: int(587, 1, 65535),
  SMTPAccount: str(''),
  SMTPFrom: str(''),
  SMTPToken: str('', true),
  SMTPSSLEnabled: bool(false),
  /** Accept an SMTP server's self-signed or otherwise unverifiable certificate (off: verified). */
  SMTPAllowSelfSigned: bool(false),
  // Site
  Notice: str(''),
  SystemName: str('Sluice'),
  Logo: str(''),
  Footer: str(''),
  About: str(''),
  HomePageContent: str(''),
  // Operation
  TopUpLink: str(''),
  ChatLink: str(''),
  ChatLink2: str(''),
  QuotaPerUnit: num(500000, 1),
  /** Where the console's docs link points (new-api's general_setting.docs_link); empty hides it. */
  DocsLink: link(),
  /** Yuan per US dollar, published for consoles that show prices in yuan; billing never uses it. */
  USDExchangeRate: positive(7.3),
  RetryTimes: int(0),
  DisplayInCurrencyEnabled: bool(true),
  DisplayTokenStatEnabled: bool(true),
  DefaultCollapseSidebar: bool(false),
  /** Published in /api/status; consoles may mark the site as a demonstration. */
  DemoSiteEnabled: bool(false),
  /** A gateway run for oneself: models without a price are served at no charge instead of refused. */
  SelfUseModeEnabled: bool(false),
  // Per-user limit of relay calls per window (count 0 = no limit on the total).
  ModelRequestRateLimitEnabled: bool(false),
  ModelRequestRateLimitDurationMinutes: int(1, 1, MAX_REQUEST_COUNT),
  ModelRequestRateLimitCount: int(0, 0, MAX_REQUEST_COUNT),
  ModelRequestRateLimitSuccessCount: int(1000, 1, MAX_REQUEST_COUNT),
  /** Group → [total, successful] replacing the two counts above for callers billed in that group. */
  ModelRequestRateLimitGroup: json(requestLimitsByGroup, {}),
  DrawingEnabled: bool(true),
  TaskEnabled: bool(true),
  MjNotifyEnabled: bool(false),
  MjAccountFilterEnabled: bool(false),
  MjForwardUrlEnabled: bool(true),
  MjModeClearEnabled: bool(false),
  MjActionCheckSuccessEnabled: bool(true),
  CheckSensitiveEnabled: bool(false),
  CheckSensitiveOnPromptEnabled: bool(false),
  SensitiveWords: str(''),
  LogConsumeEnabled: bool(true),
  LogRetentionDays: int(0),
  DataExportEnabled: bool(true),
  DataExportInterval: int(5, 1),
  DataExportDefaultTime: {
    kind: 'string',
    parse: z.enum(['hour', 'day', 'week'], { error: 'must be hour, day or week' }),
    default: 'hour',
  } satisfies OptionDef<'hour' | 'day' | 'week'>,
  ChannelDisableThreshold: num(5),
  QuotaRemindThreshold: int(1000),
  AutomaticDisableChannelEnabled: bool(false),
  AutomaticEnableChannelEnabled: bool(false),
  /**
   * One phrase per line (new-api's form): with AutomaticDisableChannelEnabled on, an upstream error
   * whose message contains one (any case) disables the channel at once, as a rejected key does.
   */
  AutomaticDisableKeywords: keywordLines(DEFAULT_AUTOMATIC_DISABLE_KEYWORDS),
  QuotaForNewUser: int(0),
  PreConsumedQuota: int(500),
  /**
   * Output tokens a relay call holds (and asks the upstream for at most) when the client sets no
   * max_tokens: model → tokens, "*" for every model not listed.
   */
  DefaultMaxTokens: json(
    z.record(
      z.string(),
      z.number({ error: 'every value must be a number' }).int({ error: 'values must be integers' }).min(1, {
        error: 'values must be at least 1',
      }),
      { error: 'must be a JSON object of model → tokens' },
    ),
    { '*': 4096 },
  ),
  /**
   * The threshold Gemini calls send for every harm category when the request sets no safetySettings
   * (new-api's key; one of Google's HarmBlockThreshold values).
   */
  GeminiSafetySetting: {
    kind: 'string',
    parse: z.enum(
      [
        'BLOCK_NONE',
        'BLOCK_ONLY_HIGH',
        'BLOCK_MEDIUM_AND_ABOVE',
        'BLOCK_LOW_AND_ABOVE',
        'HARM_BLOCK_THRESHOLD_UNSPECIFIED',
        'OFF',
      ],
      { error: 'must be one of Google’s thresholds, such as BLOCK_NONE or BLOCK_ONLY_HIGH' },
    ),
    default: 'BLOCK_NONE',
  } satisfies OptionDef<string>,
  QuotaForInviter: int(0),
  QuotaForInvitee: int(0),
  ModelPrice: json(ratioTable, DEFAULT_MODEL_PRICE),
  ModelRatio: json(ratioTable, DEFAULT_MODEL_RATIO),
  CompletionRatio: json(ratioTable, DEFAULT_COMPLETION_RATIO),
  GroupRatio: json(ratioTable, DEFAULT_GROUP_RATIO),
  /** Cached prompt tokens cost ModelRatio × CacheRatio (missing model: 1, no discount). */
  CacheRatio: json(ratioTable, DEFAULT_CACHE_RATIO),
  /**
   * Prompt tokens written to the vendor's cache cost ModelRatio × CreateCacheRatio (new-api's key).
   * A missing model pays 1.25, Anthropic's 5-minute cache-write price; vendors that report no cache
   * writes are unaffected.
   */
  CreateCacheRatio: json(ratioTable, DEFAULT_CREATE_CACHE_RATIO),
  UserUsableGroups: json(
    z.record(z.string(), z.string(), { error: 'must be a JSON object of group → description' }),
    DEFAULT_USER_USABLE_GROUPS,
  ),
  Chats: json(
    z.array(z.record(z.string(), z.string()), { error: 'must be a JSON array of {name: link} objects' }),
    DEFAULT_CHATS,
  ),
} as const satisfies Record<string, OptionDef>;

export type OptionKey = keyof typeof OPTION_DEFS;
export type OptionValue<K extends OptionKey> = z.output<(typeof OPTION_DEFS)[K]['parse']>;
export type OptionValues = { [K in OptionKey]: OptionValue<K> };

export const OPTION_KEYS = Object.keys(OPTION_DEFS) as OptionKey[];

export const isOptionKey = (key: string): key is OptionKey => Object.hasOwn(OPTION_DEFS, key);

/**
 * Other names consoles save an option under: new-api's grouped setting keys. A PUT of an alias stores
 * the option; GET /api/option/ lists the alias too, so such a console reads back what it saved.
 */
export const OPTION_ALIASES: Readonly<Record<string, OptionKey>> = {
  'general_setting.docs_link': 'DocsLink',
};

/** The registry key a key names, directly or through an alias. */
export const resolveOptionKey = (key: string): OptionKey | undefined =>
  isOptionKey(key) ? key : Object.hasOwn(OPTION_ALIASES, key) ? OPTION_ALIASES[key] : undefined;

export const isSecretOption = (key: OptionKey): boolean => (OPTION_DEFS[key] as OptionDef).secret === true;

/** Parses one stored string; returns the typed value or the first validation message. */
export function parseOptionValue<K extends OptionKey>(
  key: K,
  value: string,
): { ok: true; value: OptionValue<K> } | { ok: false; message: string } {
  const def = OPTION_DEFS[key] as OptionDef<OptionValue<K>>;
  const result = def.parse.safeParse(value);
  if (result.success) return { ok: true, value: result.data };
  return { ok: false, message: def.invalidMessage ?? result.error.issues[0]?.message ?? 'invalid value' };
}
