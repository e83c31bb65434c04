// The tabs of /setting, chosen by ?tab=. A new tab is one entry here; its component is loaded only
// when the tab is opened. Super-admin tabs (operation, system, other) use access 'root'.
import type { TFunction } from 'i18next';
import type { ComponentType } from 'react';

export interface SettingsTab {
  key: string;
  label: (t: TFunction) => string;
  access: 'user' | 'root';
  load: () => Promise<ComponentType>;
}

export const DEFAULT_SETTINGS_TAB = 'personal';

export const settingsTabs: SettingsTab[] = [
  {
    key: 'personal',
    label: (t) => t('settings.personal'),
    access: 'user',
    load: () => import('./personal/personal-tab').then((m) => m.PersonalTab),
  },
  {
    key: 'operation',
    label: (t) => t('siteSettings.tabs.operation'),
    access: 'root',
    load: () => import('./site/site-tabs').then((m) => m.OperationTab),
  },
  {
    key: 'system',
    label: (t) => t('siteSettings.tabs.system'),
    access: 'root',
    load: () => import('./site/site-tabs').then((m) => m.SystemTab),
  },
  {
    key: 'other',
    label: (t) => t('siteSettings.tabs.other'),
    access: 'root',
    load: () => import('./site/site-tabs').then((m) => m.OtherTab),
  },
];
