// The operation tab's cards (spec part 1 §2, §3): what each shows, in order.
import { LogPurge, ResetRatios } from './card-extras';
import type { CardDesc, FieldDesc, SiteFieldKey } from './fields';

const switches = (...keys: SiteFieldKey[]): FieldDesc[] => keys.map((key) => ({ key, kind: 'switch' }));
const numbers = (...keys: SiteFieldKey[]): FieldDesc[] => keys.map((key) => ({ key, kind: 'number' }));
const json = (key: SiteFieldKey, rows = 6): FieldDesc => ({ key, kind: 'json', rows });

export const OPERATION_CARDS: CardDesc[] = [
  {
    key: 'general',
    fields: [
      { key: 'TopUpLink', kind: 'input' },
      { key: 'ChatLink', kind: 'input' },
      { key: 'ChatLink2', kind: 'input' },
      { key: 'DocsLink', kind: 'input' },
      { key: 'QuotaPerUnit', kind: 'number', min: 1 },
      { key: 'USDExchangeRate', kind: 'number', min: 0.01 },
      { key: 'RetryTimes', kind: 'number' },
      ...switches(
        'DisplayInCurrencyEnabled',
        'DisplayTokenStatEnabled',
        'DefaultCollapseSidebar',
        'DemoSiteEnabled',
        'SelfUseModeEnabled',
      ),
    ],
  },
  {
    key: 'rateLimit',
    fields: [
      ...switches('ModelRequestRateLimitEnabled'),
      { key: 'ModelRequestRateLimitDurationMinutes', kind: 'number', min: 1 },
      ...numbers('ModelRequestRateLimitCount'),
      { key: 'ModelRequestRateLimitSuccessCount', kind: 'number', min: 1 },
      json('ModelRequestRateLimitGroup', 5),
    ],
  },
  {
    key: 'drawing',
    fields: switches(
      'DrawingEnabled',
      'TaskEnabled',
      'MjNotifyEnabled',
      'MjAccountFilterEnabled',
      'MjForwardUrlEnabled',
      'MjModeClearEnabled',
      'MjActionCheckSuccessEnabled',
    ),
  },
  {
    key: 'sensitive',
    fields: [
      ...switches('CheckSensitiveEnabled', 'CheckSensitiveOnPromptEnabled'),
      { key: 'SensitiveWords', kind: 'textarea', rows: 6 },
    ],
  },
  {
    key: 'logs',
    fields: [...switches('LogConsumeEnabled'), ...numbers('LogRetentionDays')],
    extra: LogPurge,
  },
  {
    key: 'dashboard',
    fields: [
      ...switches('DataExportEnabled'),
      { key: 'DataExportInterval', kind: 'number', min: 1 },
      { key: 'DataExportDefaultTime', kind: 'select', choices: { values: ['hour', 'day', 'week'] } },
    ],
  },
  {
    key: 'monitoring',
    fields: [
      ...numbers('ChannelDisableThreshold', 'QuotaRemindThreshold'),
      ...switches('AutomaticDisableChannelEnabled', 'AutomaticEnableChannelEnabled'),
      { key: 'AutomaticDisableKeywords', kind: 'textarea', rows: 6 },
    ],
  },
  {
    key: 'quota',
    fields: [
      ...numbers('QuotaForNewUser', 'PreConsumedQuota', 'QuotaForInviter', 'QuotaForInvitee'),
      json('DefaultMaxTokens', 4),
    ],
  },
  { key: 'chats', fields: [json('Chats', 8)] },
  {
    key: 'ratios',
    fields: [
      json('ModelPrice', 8),
      json('ModelRatio', 10),
      json('CompletionRatio', 8),
      json('CacheRatio', 8),
      json('CreateCacheRatio', 8),
      json('GroupRatio', 5),
      json('UserUsableGroups', 5),
      json('TopupGroupRatio', 5),
    ],
    extra: ResetRatios,
  },
];
