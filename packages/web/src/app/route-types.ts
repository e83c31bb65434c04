// The shape a feature uses to add pages: features/<domain>/routes.ts exports an AppRoute[] and
// app/route-modules.ts lists it. Each page is its own chunk through the dynamic import in `page`.
import type { ComponentType } from 'react';

/** Who may open a page: anyone, signed-in users, admins (role >= 10), super admins (role >= 100). */
export type Access = 'public' | 'user' | 'admin' | 'root';

export interface AppRoute {
  /** Absolute path, e.g. '/user/edit/:id'. '/' is the home page. */
  path: string;
  access: Access;
  /** e.g. `() => import('./users-page').then((m) => m.UsersPage)` — never a static import. */
  page: () => Promise<ComponentType>;
}
