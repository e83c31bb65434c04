// The console's first paints (docs/first-load.md): the cookie in which the console tells the server its
// language and theme (`language.theme`), so that a cold load is rendered in them.

export const LOOK_COOKIE = 'ui';

export interface Look {
  language: 'en' | 'zh-CN';
  theme: 'light' | 'dark';
}

/** The cookie's value for a language and theme. */
export const lookValue = (language: string, theme: string): string => `${language}.${theme}`;

const DEFAULT_LOOK: Look = { language: 'en', theme: 'light' };

/** The look a cookie names; anything else (none, another language or theme) reads as the default. */
export function lookOf(value: string | undefined): Look {
  const match = /^(en|zh-CN)\.(light|dark)$/.exec(value ?? '');
  return match ? { language: match[1] as Look['language'], theme: match[2] as Look['theme'] } : DEFAULT_LOOK;
}
