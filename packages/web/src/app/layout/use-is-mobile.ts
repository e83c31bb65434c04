import { useSyncExternalStore } from 'react';

/** antd's md breakpoint: below 768 px the sidebar becomes a drawer and the top bar compacts. */
const QUERY = '(max-width: 767.98px)';

const media = () => (typeof window.matchMedia === 'function' ? window.matchMedia(QUERY) : null);

function subscribe(onChange: () => void): () => void {
  const list = media();
  list?.addEventListener('change', onChange);
  return () => list?.removeEventListener('change', onChange);
}

export function useIsMobile(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => media()?.matches ?? false,
    () => false,
  );
}
