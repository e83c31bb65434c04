// A user's quota warning settings: new-api's `setting` JSON text on the users row, written by
// PUT /api/user/setting and read back in GET /api/user/self.
import { MSG, userSettingSchema } from '@sluice/shared';
import type { SelfUser } from '@sluice/shared';
import type { AppContext } from '../../app-context.js';
import type { UserRow } from '../../db/tables.js';
import { badRequest, parseInput } from '../../http/envelope.js';
import { toPublicUser, updateLiveUser } from './users.repository.js';

export const toSelfUser = (row: UserRow): SelfUser => ({
  ...toPublicUser(row),
  setting: row.setting ?? '',
  password_change_required: row.password_change_required === 1,
});

/**
 * Validates and stores the settings. Saving also re-arms the warning (the next charge that leaves
 * the balance below the threshold warns), so a user can check a new webhook or address at once.
 */
export async function updateUserSetting(ctx: AppContext, user: UserRow, body: unknown): Promise<void> {
  const setting = parseInput(userSettingSchema, body);
  if (setting.notify_type === 'email' && setting.notification_email === '' && user.email === '') {
    throw badRequest(MSG.notificationEmailMissing);
  }
  const id = Number(user.id);
  if (!(await updateLiveUser(ctx.db, id, { setting: JSON.stringify(setting), quota_warned_at: 0 }))) {
    throw badRequest(MSG.userDeregistered);
  }
  // The quota warning keeps each user's settings in memory; this tells it (and the relay) to read again.
  ctx.bus.publish('users', String(id));
}
