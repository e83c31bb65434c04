// Applies a route's access level: visitors go to /login (remembering where they were going),
// signed-in users without the role are sent back to the home page. The server enforces the same rules.
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { isAdmin, isRoot } from '@sluice/shared';
import { useUser } from '../lib/session';
import type { SessionUser } from '../lib/session';
import type { Access } from './route-types';

/** Whether `user` (null: a visitor) may open a page of this access level. */
export const mayOpen = (access: Access, user: SessionUser | null): boolean =>
  access === 'public' ||
  (user !== null && (access === 'user' || (access === 'admin' ? isAdmin(user.role) : isRoot(user.role))));

export function AccessGate({ access, children }: { access: Access; children: ReactNode }) {
  const user = useUser();
  const location = useLocation();
  if (access === 'public') return children;
  if (!user) {
    return <Navigate to="/login" replace state={{ from: `${location.pathname}${location.search}` }} />;
  }
  if (!mayOpen(access, user)) return <Navigate to="/" replace />;
  return children;
}
