// Which drawer the address asks for: /channel/add (create), /channel/edit/:id (edit) or none.
import { useState } from 'react';

export type DrawerRoute =
  { kind: 'add' } | { kind: 'edit'; id: number } | { kind: 'none' } | { kind: 'unknown' };

/** `rest` is what follows /channel/ in the path. */
export function parseDrawerRoute(rest: string): DrawerRoute {
  const path = rest.replace(/\/+$/, '');
  if (path === '') return { kind: 'none' };
  if (path === 'add') return { kind: 'add' };
  const edit = /^edit\/(\d+)$/.exec(path);
  const id = edit ? Number(edit[1]) : NaN;
  return Number.isSafeInteger(id) && id > 0 ? { kind: 'edit', id } : { kind: 'unknown' };
}

export interface DrawerSession {
  /** The drawer to show; kept after closing so it can animate out as it was. */
  route: { kind: 'add' } | { kind: 'edit'; id: number } | null;
  open: boolean;
  /** Changes on every opening: the drawer starts from a fresh form each time. */
  key: string;
}

const routeKey = (route: DrawerRoute): string | null =>
  route.kind === 'add' ? 'add' : route.kind === 'edit' ? `edit:${route.id}` : null;

export function useDrawerSession(route: DrawerRoute): DrawerSession {
  const key = routeKey(route);
  const [state, setState] = useState(() => ({ key, count: 0, last: route }));
  if (key !== state.key) {
    // Adjusting state to a new address during render (React's "storing information from previous
    // renders"); a new opening gets a new count.
    setState({ key, count: key ? state.count + 1 : state.count, last: key ? route : state.last });
  }
  const last = key ? route : state.last;
  const shown = last.kind === 'add' || last.kind === 'edit' ? last : null;
  return { route: shown, open: key !== null, key: `${shown ? routeKey(shown) : 'none'}#${state.count}` };
}
