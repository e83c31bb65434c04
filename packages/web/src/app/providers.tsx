// Everything a page relies on: data cache, language, antd theme and locale. Toasts and dialogs
// (components/feedback.tsx) sit inside the router, in the app layout, so dialogs may hold links.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ConfigProvider, theme } from 'antd';
import { useEffect } from 'react';
import type { ReactNode } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { antdLocale, i18n } from '../i18n';
import { ThemeModeProvider, useThemeMode } from './theme';
import type { ThemeMode } from './theme';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      // lib/api.ts already told the user about a failure; retrying would repeat the toast.
      queries: { retry: false, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}

/** Keeps the page background (outside antd's components) in the theme. */
function PageBackground() {
  const { token } = theme.useToken();
  useEffect(() => {
    document.body.style.backgroundColor = token.colorBgLayout;
    document.body.style.color = token.colorText;
  }, [token.colorBgLayout, token.colorText]);
  return null;
}

function ThemedAntd({ children }: { children: ReactNode }) {
  const { mode } = useThemeMode();
  const { i18n: current } = useTranslation();
  const zh = current.language === 'zh-CN';
  useEffect(() => {
    document.documentElement.lang = zh ? 'zh-CN' : 'en';
  }, [zh]);
  return (
    <ConfigProvider
      // Always a locale (a first render without one and a later one with it would rebuild every page).
      locale={antdLocale(current.language)}
      theme={{
        algorithm: mode === 'dark' ? theme.darkAlgorithm : theme.defaultAlgorithm,
        token: { colorPrimary: '#1677ff', borderRadius: 8 },
      }}
    >
      <PageBackground />
      {children}
    </ConfigProvider>
  );
}

export function Providers({
  children,
  queryClient,
  themeMode,
}: {
  children: ReactNode;
  queryClient: QueryClient;
  /** Set only when rendering outside the browser; the browser uses the stored mode. */
  themeMode?: ThemeMode;
}) {
  return (
    <QueryClientProvider client={queryClient}>
      <I18nextProvider i18n={i18n}>
        <ThemeModeProvider initial={themeMode}>
          <ThemedAntd>{children}</ThemedAntd>
        </ThemeModeProvider>
      </I18nextProvider>
    </QueryClientProvider>
  );
}
