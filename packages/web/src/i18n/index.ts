// i18next set-up: English by default and bundled; Simplified Chinese (complete) is loaded when
// chosen. The choice is remembered under the `language` storage key.
import type { Locale } from 'antd/es/locale';
import antdEnglish from 'antd/es/locale/en_US';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { rememberLook } from '../lib/first-paint';
import { STORAGE_KEYS, readString, writeString } from '../lib/storage';
import { en } from './en';
import { SECTIONS } from './sections';

export const LANGUAGES = [
  { code: 'en', label: 'English' },
  { code: 'zh-CN', label: '中文' },
] as const;
export type LanguageCode = (typeof LANGUAGES)[number]['code'];

const isLanguage = (value: string | null): value is LanguageCode => LANGUAGES.some((l) => l.code === value);

export const i18n = i18next.createInstance();
void i18n.use(initReactI18next).init({
  resources: { en: { translation: en } },
  lng: 'en',
  fallbackLng: 'en',
  initAsync: false,
  interpolation: { escapeValue: false },
  returnNull: false,
});

/** antd's own texts (pagination, modals…) per language; English is antd's default and bundled. */
const antdLocales: Partial<Record<LanguageCode, Locale>> = { en: antdEnglish };

/** antd's texts for the language; loaded with the language, so the first render already has them. */
export const antdLocale = (code: string): Locale => antdLocales[code as LanguageCode] ?? antdEnglish;

let coreZhLoaded = false;
async function loadLanguage(code: LanguageCode): Promise<void> {
  if (code === 'zh-CN' && !coreZhLoaded) {
    const [{ zhCN }, antdChinese] = await Promise.all([import('./zh-cn'), import('antd/es/locale/zh_CN')]);
    // Deep merge: sections may already have added their Chinese texts.
    i18n.addResourceBundle('zh-CN', 'translation', zhCN, true, false);
    antdLocales['zh-CN'] = antdChinese.default;
    coreZhLoaded = true;
  }
}

let sections: Promise<void> | undefined;
/** Loads every feature section's texts once (both languages: they are small). */
export function loadSections(): Promise<void> {
  sections ??= Promise.allSettled(
    Object.entries(SECTIONS).map(async ([name, load]) => {
      const texts = await load();
      i18n.addResourceBundle('en', 'translation', { [name]: texts.en }, true, true);
      i18n.addResourceBundle('zh-CN', 'translation', { [name]: texts.zhCN }, true, true);
    }),
  ).then(() => undefined);
  return sections;
}

export async function changeLanguage(code: LanguageCode): Promise<void> {
  writeString(STORAGE_KEYS.language, code);
  await loadLanguage(code);
  await i18n.changeLanguage(code);
  if (typeof document !== 'undefined') rememberLook(code, document.documentElement.dataset.theme ?? 'light');
}

/** Applies the remembered language before the first paint (English needs no loading). */
export async function restoreLanguage(): Promise<void> {
  const stored = readString(STORAGE_KEYS.language);
  if (isLanguage(stored) && stored !== 'en') {
    try {
      await loadLanguage(stored);
      await i18n.changeLanguage(stored);
    } catch {
      // The chunk could not load: stay in English.
    }
  }
}
