// Light/dark mode: kept under the `theme-mode` storage key and applied through antd's algorithm; the
// page background follows so nothing outside antd's components stays white in dark mode.
import { createContext, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import type { ReactNode } from 'react';
import { i18n } from '../i18n';
import { rememberLook } from '../lib/first-paint';
import { STORAGE_KEYS, readString, writeString } from '../lib/storage';

export type ThemeMode = 'light' | 'dark';

interface ThemeModeContextValue {
  mode: ThemeMode;
  setMode(mode: ThemeMode): void;
  toggle(): void;
}

const ThemeModeContext = createContext<ThemeModeContextValue | null>(null);

function initialMode(): ThemeMode {
  const stored = readString(STORAGE_KEYS.themeMode);
  if (stored === 'light' || stored === 'dark') return stored;
  const prefersDark =
    typeof window.matchMedia === 'function' && window.matchMedia('(prefers-color-scheme: dark)').matches;
  return prefersDark ? 'dark' : 'light';
}

/** `initial`: the mode to render in (a first paint rendered outside the browser); else the stored one. */
export function ThemeModeProvider({ children, initial }: { children: ReactNode; initial?: ThemeMode }) {
  const [mode, setModeState] = useState<ThemeMode>(initial ?? initialMode);

  const setMode = useCallback((next: ThemeMode) => {
    writeString(STORAGE_KEYS.themeMode, next);
    setModeState(next);
  }, []);

  useEffect(() => {
    document.documentElement.dataset.theme = mode;
    document.documentElement.style.colorScheme = mode;
    rememberLook(i18n.language, mode);
  }, [mode]);

  const value = useMemo<ThemeModeContextValue>(
    () => ({ mode, setMode, toggle: () => setMode(mode === 'dark' ? 'light' : 'dark') }),
    [mode, setMode],
  );
  return <ThemeModeContext.Provider value={value}>{children}</ThemeModeContext.Provider>;
}

export function useThemeMode(): ThemeModeContextValue {
  const value = useContext(ThemeModeContext);
  if (!value) throw new Error('useThemeMode needs ThemeModeProvider');
  return value;
}
