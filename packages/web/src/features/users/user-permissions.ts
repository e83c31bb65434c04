// Which row actions the signed-in caller may use on a user, by the same rules the server enforces
// (users.service.ts): nobody acts on an equal or higher role (themselves included), only a super
// admin promotes, and a super admin is never demoted or deleted. Showing a button the server is
// bound to refuse only produces an error, so the table offers exactly these. Pure, tested alone.
import { ROLE } from '@sluice/shared';
import type { PublicUser, UserAction } from '@sluice/shared';
import { isDeregistered } from './labels';

export interface Caller {
  id: number;
  role: number;
}

export type RowAction = UserAction | 'edit';

/**
 * The actions in the order the row shows them. Enable and disable are both listed when allowed;
 * the row shows the one that fits the current status. Editing one's own row opens the own-account
 * form, which is not a management action and so is always allowed.
 */
export function allowedUserActions(caller: Caller | null, target: PublicUser): Set<RowAction> {
  const allowed = new Set<RowAction>();
  if (caller === null || isDeregistered(target)) return allowed;
  if (target.id === caller.id) {
    allowed.add('edit');
    return allowed;
  }
  if (target.role >= caller.role) return allowed;
  if (caller.role >= ROLE.root && target.role < ROLE.admin) allowed.add('promote');
  if (target.role >= ROLE.admin && target.role < ROLE.root) allowed.add('demote');
  allowed.add('enable');
  allowed.add('disable');
  if (target.role < ROLE.root) allowed.add('delete');
  allowed.add('edit');
  return allowed;
}
