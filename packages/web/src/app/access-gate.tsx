// Applies a route's access level: visitors go to /login (remembering where they were going),
// signed-in users without the role are sent back to the home page. The server enforces the same rules.
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { isAdmin, isRoot } from '@sluice/shared';
import { useUser } from '../lib/session';
import type { Access } from './route-types';

export function AccessGate({ access, children }: { access: Access; children: ReactNode }) {
  const user = useUser();
  const location = useLocation();
  if (access === 'public') return children;
  if (!user) {
    return <Navigate to="/login" replace state={{ from: `${location.pathname}${location.search}` }} />;
  }
  const allowed = access === 'user' || (access === 'admin' ? isAdmin(user.role) : isRoot(user.role));
  if (!allowed) return <Navigate to="/" replace />;
  return children;
}
