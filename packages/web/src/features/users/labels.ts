// How a user's role and status read in the table (spec part 1 §4). Pure, so the rules are tested
// without rendering.
import { ROLE, USER_STATUS } from '@sluice/shared';
import type { PublicUser } from '@sluice/shared';

export type RoleLabel = 'user' | 'admin' | 'root' | 'unknown';
export type StatusLabel = 'enabled' | 'banned' | 'deregistered' | 'unknown';

export function roleLabel(role: number): RoleLabel {
  if (role === ROLE.user) return 'user';
  if (role === ROLE.admin) return 'admin';
  if (role === ROLE.root) return 'root';
  return 'unknown';
}

export function statusLabel(user: Pick<PublicUser, 'status' | 'DeletedAt'>): StatusLabel {
  if (user.DeletedAt !== null && user.DeletedAt !== undefined) return 'deregistered';
  if (user.status === USER_STATUS.enabled) return 'enabled';
  if (user.status === USER_STATUS.banned) return 'banned';
  return 'unknown';
}

export const isDeregistered = (user: Pick<PublicUser, 'DeletedAt'>): boolean =>
  user.DeletedAt !== null && user.DeletedAt !== undefined;
