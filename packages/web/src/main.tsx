import { StrictMode, useEffect } from 'react';
import type { ReactNode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App, firstPageReady } from './app/app';
import './app/global.css';
import { restoreLanguage } from './i18n';
import { holdsFirstPaint, keepTypedText } from './lib/first-paint';

/**
 * Once the console holds the page, it also holds what was typed into the first paint, and only then
 * takes clicks (one before would act on what the server rendered, e.g. sign in without the typed name).
 */
function TakeOver({ root, children }: { root: HTMLElement; children: ReactNode }) {
  useEffect(() => {
    keepTypedText(root, () => document.documentElement.classList.remove('first-paint-pending'));
  }, [root]);
  return children;
}

/** Takes over the server's first paint where it stands once the page's code has loaded. */
async function hydrate(root: HTMLElement): Promise<void> {
  // The browser shows the first paint before the console's work starts (docs/first-load.md).
  await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  await firstPageReady();
  hydrateRoot(
    root,
    <StrictMode>
      <TakeOver root={root}>
        <App />
      </TakeOver>
    </StrictMode>,
  );
}

const root = document.getElementById('root');
if (root) {
  const hasFirstPaint = holdsFirstPaint(root);
  void restoreLanguage().finally(() => {
    if (hasFirstPaint) return hydrate(root);
    // Blank until the console renders, as without a first paint (the guard hid a stale one).
    root.replaceChildren();
    document.documentElement.classList.remove('first-paint-stale', 'first-paint-pending');
    createRoot(root).render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  });
}
