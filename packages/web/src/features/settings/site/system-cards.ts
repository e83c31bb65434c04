// The system tab's cards (spec part 1 §2, §3). Secret keys (the registry marks them) are write-only.
import type { CardDesc, FieldDesc, SiteFieldKey } from './fields';

const inputs = (...keys: SiteFieldKey[]): FieldDesc[] => keys.map((key) => ({ key, kind: 'input' }));
const switches = (...keys: SiteFieldKey[]): FieldDesc[] => keys.map((key) => ({ key, kind: 'switch' }));

export const SYSTEM_CARDS: CardDesc[] = [
  { key: 'server', fields: inputs('ServerAddress') },
  { key: 'worker', fields: inputs('WorkerUrl', 'WorkerValidKey') },
  {
    key: 'payment',
    fields: [
      ...inputs('PayAddress', 'EpayId', 'EpayKey', 'CustomCallbackAddress'),
      { key: 'Price', kind: 'number' },
      { key: 'MinTopUp', kind: 'number', min: 1 },
      { key: 'TopupGroupRatio', kind: 'json', rows: 5 },
    ],
    // The gateway reports payments back to the server address.
    beforeSave: (stored) => ((stored.ServerAddress ?? '').trim() === '' ? 'fillServerAddressFirst' : null),
  },
  {
    key: 'login',
    fields: [
      { key: 'PasswordLoginEnabled', kind: 'switch', confirmOff: true },
      ...switches(
        'PasswordRegisterEnabled',
        'EmailVerificationEnabled',
        'GitHubOAuthEnabled',
        'LinuxDOOAuthEnabled',
        'WeChatAuthEnabled',
        'TelegramOAuthEnabled',
        'TurnstileCheckEnabled',
        'RegisterEnabled',
      ),
    ],
  },
  {
    key: 'emailDomains',
    fields: [
      ...switches('EmailDomainRestrictionEnabled', 'EmailAliasRestrictionEnabled'),
      { key: 'EmailDomainWhitelist', kind: 'tags' },
    ],
  },
  {
    key: 'smtp',
    fields: [
      ...inputs('SMTPServer'),
      { key: 'SMTPPort', kind: 'number', min: 1 },
      ...inputs('SMTPAccount', 'SMTPFrom', 'SMTPToken'),
      ...switches('SMTPSSLEnabled', 'SMTPAllowSelfSigned'),
    ],
  },
  { key: 'github', fields: inputs('GitHubClientId', 'GitHubClientSecret') },
  {
    key: 'wechat',
    fields: inputs('WeChatServerAddress', 'WeChatServerToken', 'WeChatAccountQRCodeImageURL'),
  },
  { key: 'telegram', fields: inputs('TelegramBotToken', 'TelegramBotName') },
  { key: 'turnstile', fields: inputs('TurnstileSiteKey', 'TurnstileSecretKey') },
  { key: 'linuxdo', fields: inputs('LinuxDOClientId', 'LinuxDOClientSecret') },
];
