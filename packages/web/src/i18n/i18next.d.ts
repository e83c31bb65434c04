// Typed translation keys: a misspelt key is a compile error.
import 'i18next';
import type { en } from './en';
import type { SectionTexts } from './sections';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof en & SectionTexts };
  }
}
