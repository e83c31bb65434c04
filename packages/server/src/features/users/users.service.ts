// Account rules: who may act on whom, what an edit may change, and what each change must end
// (sessions on password change, ban and deletion; cached copies on every write).
import { LOG_TYPE, MSG, ROLE, USER_STATUS, makeAffTransferSchema } from '@sluice/shared';
import type {
  ManageResult,
  PublicUser,
  SelfUpdateInput,
  UserCreateInput,
  UserGroups,
  UserManageInput,
  UserUpdateInput,
} from '@sluice/shared';
import type { AppContext } from '../../app-context.js';
import { inTransaction } from '../../billing/ledger.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { UserRow, UserUpdate } from '../../db/tables.js';
import { ApiError, badRequest, conflict, forbidden, notFound, parseInput } from '../../http/envelope.js';
import { randomString } from '../../platform/random.js';
import { hashPassword } from '../auth/password.js';
import { adminAddQuotaLogText, adminSetQuotaLogText, affTransferLogText } from '../logs/log-text.js';
import { recordLog } from '../logs/logs.repository.js';
import { createAccount } from './account-creation.js';
import {
  addQuota,
  findUserById,
  softDeleteUser,
  toPublicUser,
  transferAffQuota,
  updateLiveUser,
} from './users.repository.js';

/** Nobody acts on a user whose role is equal to or higher than their own (themselves included). */
function assertOutranks(caller: UserRow, target: UserRow): void {
  if (target.role >= caller.role) throw forbidden(MSG.cannotActOnEqualOrHigher);
}

/** Root, having nobody above, may edit its own account; nobody else edits themselves from here. */
const isRootOnSelf = (caller: UserRow, target: UserRow): boolean =>
  caller.role >= ROLE.root && Number(caller.id) === Number(target.id);

/** The quota and its manage log land together; the increment itself never reads first. */
async function applyQuotaDelta(ctx: AppContext, caller: UserRow, target: UserRow, delta: number) {
  const id = Number(target.id);
  await inTransaction(ctx.db, async (trx) => {
    if (!(await addQuota(trx, id, delta))) throw badRequest(MSG.quotaResultOutOfRange);
    await trx
      .insertInto('logs')
      .values({
        user_id: id,
        username: target.username,
        created_at: ctx.clock.now(),
        type: LOG_TYPE.manage,
        ...adminAddQuotaLogText({ delta, adminId: Number(caller.id) }),
      })
      .execute();
  });
  announce(ctx, id);
}

async function findTarget(ctx: AppContext, id: number): Promise<UserRow> {
  const target = await findUserById(ctx.db, id, { withDeleted: true });
  if (!target) throw notFound(MSG.userNotFound);
  return target;
}

async function reload(ctx: AppContext, id: number): Promise<PublicUser> {
  const row = await findUserById(ctx.db, id, { withDeleted: true });
  if (!row) throw notFound(MSG.userNotFound);
  return toPublicUser(row);
}

/** Tells every node's caches (the relay keeps users in memory) that this user changed. */
const announce = (ctx: AppContext, id: number) => ctx.bus.publish('users', String(id));

/** Writes a patch to a live user; a taken username becomes a 409. */
async function writeUser(ctx: AppContext, id: number, patch: UserUpdate): Promise<void> {
  if (Object.keys(patch).length === 0) return;
  let updated: boolean;
  try {
    updated = await updateLiveUser(ctx.db, id, patch);
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(MSG.usernameTaken);
    throw error;
  }
  if (!updated) throw badRequest(MSG.userDeregistered);
  announce(ctx, id);
}

/** The fields both edit forms share; an empty password or display name keeps the current value. */
async function profilePatch(
  ctx: AppContext,
  current: UserRow,
  input: { username?: string; display_name?: string; password?: string },
): Promise<UserUpdate> {
  const patch: UserUpdate = {};
  if (input.username !== undefined && input.username !== current.username) patch.username = input.username;
  if (input.display_name) patch.display_name = input.display_name;
  if (input.password) {
    // (The default 123456 is below the minimum length, so it cannot be chosen again.)
    patch.password = await hashPassword(input.password, ctx.config.bcryptCost);
    patch.password_change_required = 0;
  }
  return patch;
}

export async function getUserForAdmin(ctx: AppContext, caller: UserRow, id: number): Promise<PublicUser> {
  const target = await findTarget(ctx, id);
  if (Number(target.id) !== Number(caller.id)) assertOutranks(caller, target);
  return toPublicUser(target);
}

export async function adminCreateUser(
  ctx: AppContext,
  caller: UserRow,
  input: UserCreateInput,
): Promise<PublicUser> {
  const role = input.role ?? ROLE.user;
  if (role >= caller.role) throw forbidden(MSG.cannotCreateEqualOrHigher);
  const row = await createAccount(ctx, {
    username: input.username,
    password: input.password,
    ...(input.display_name ? { display_name: input.display_name } : {}),
    role,
    grantSignupQuota: false,
  });
  return toPublicUser(row);
}

export async function adminUpdateUser(
  ctx: AppContext,
  caller: UserRow,
  input: UserUpdateInput,
  sessionId: string | null = null,
): Promise<PublicUser> {
  const target = await findTarget(ctx, input.id);
  // PUT never changes role or status, so root editing itself cannot demote or disable itself.
  if (!isRootOnSelf(caller, target)) assertOutranks(caller, target);
  if (target.deleted_at !== null) throw badRequest(MSG.userDeregistered);
  const id = Number(target.id);
  const patch = await profilePatch(ctx, target, input);
  if (input.group !== undefined && input.group !== target.group) patch.group = input.group;

  const quotaChanged = input.quota !== undefined && input.quota !== Number(target.quota);
  if (!quotaChanged) {
    await writeUser(ctx, id, patch);
  } else {
    const quota = input.quota as number;
    // The quota and its log row land together; the row lock makes "from" the value actually replaced.
    await inTransaction(ctx.db, async (trx) => {
      let read = trx.selectFrom('users').select('quota').where('id', '=', id);
      if (ctx.dialect !== 'sqlite') read = read.forUpdate();
      const before = Number((await read.executeTakeFirstOrThrow()).quota);
      try {
        if (!(await updateLiveUser(trx, id, { ...patch, quota }))) throw badRequest(MSG.userDeregistered);
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(MSG.usernameTaken);
        throw error;
      }
      await trx
        .insertInto('logs')
        .values({
          user_id: id,
          username: patch.username ?? target.username,
          created_at: ctx.clock.now(),
          type: LOG_TYPE.manage,
          ...adminSetQuotaLogText({ from: before, to: quota, adminId: Number(caller.id) }),
        })
        .execute();
    });
    announce(ctx, id);
  }
  // The user's sessions end; root changing its own password stays signed in where it made the change.
  const keep = Number(caller.id) === id && sessionId !== null ? sessionId : undefined;
  if (patch.password !== undefined) await ctx.sessions.revokeUser(id, keep);
  return reload(ctx, id);
}

export async function manageUser(
  ctx: AppContext,
  caller: UserRow,
  input: UserManageInput,
): Promise<ManageResult> {
  const target = await findTarget(ctx, input.id);
  if (target.deleted_at !== null) throw badRequest(MSG.userDeregistered);
  const id = Number(target.id);
  // The specific refusals come before the general rank check so the caller learns the real reason.
  if (input.action === 'promote' && caller.role < ROLE.root) throw forbidden(MSG.onlyRootCanPromote);
  if (input.action === 'demote' && target.role >= ROLE.root) throw forbidden(MSG.cannotDemoteRoot);
  if (input.action === 'delete' && target.role >= ROLE.root) throw forbidden(MSG.cannotDeleteRoot);
  if (!(input.action === 'add_quota' && isRootOnSelf(caller, target))) assertOutranks(caller, target);

  switch (input.action) {
    case 'promote':
      if (target.role >= ROLE.admin) throw badRequest(MSG.alreadyAdmin);
      await writeUser(ctx, id, { role: ROLE.admin });
      break;
    case 'demote':
      if (target.role <= ROLE.user) throw badRequest(MSG.alreadyUser);
      await writeUser(ctx, id, { role: ROLE.user });
      break;
    case 'enable':
      await writeUser(ctx, id, { status: USER_STATUS.enabled });
      break;
    case 'disable':
      await writeUser(ctx, id, { status: USER_STATUS.banned });
      await ctx.sessions.revokeUser(id);
      break;
    case 'delete':
      if (!(await softDeleteUser(ctx.db, id, ctx.clock.now()))) throw badRequest(MSG.userDeregistered);
      announce(ctx, id);
      await ctx.sessions.revokeUser(id);
      break;
    case 'add_quota':
      // The schema makes value present for this action.
      await applyQuotaDelta(ctx, caller, target, input.value ?? 0);
      break;
  }
  const after = await reload(ctx, id);
  const result: ManageResult = { status: after.status, role: after.role };
  if (input.action === 'add_quota') result.quota = after.quota;
  return result;
}

/** Own profile: username, display name, password. Group, quota and role never change here. */
export async function updateSelf(
  ctx: AppContext,
  user: UserRow,
  sessionId: string | null,
  input: SelfUpdateInput,
): Promise<PublicUser> {
  const id = Number(user.id);
  const patch = await profilePatch(ctx, user, input);
  await writeUser(ctx, id, patch);
  // Other devices are signed out; the one that made the change stays signed in.
  if (patch.password !== undefined) await ctx.sessions.revokeUser(id, sessionId ?? undefined);
  return reload(ctx, id);
}

export async function deleteSelf(ctx: AppContext, user: UserRow): Promise<void> {
  if (user.role >= ROLE.root) throw forbidden(MSG.rootCannotDeleteSelf);
  const id = Number(user.id);
  await softDeleteUser(ctx.db, id, ctx.clock.now());
  announce(ctx, id);
  await ctx.sessions.revokeUser(id);
}

/** Stores a fresh CSPRNG value in a unique column, drawing again on the (unlikely) collision. */
async function writeUniqueRandom(
  ctx: AppContext,
  id: number,
  column: 'access_token' | 'aff_code',
  length: number,
): Promise<string> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const value = randomString(length);
    try {
      if (!(await updateLiveUser(ctx.db, id, { [column]: value }))) throw new ApiError(401, MSG.notLoggedIn);
      announce(ctx, id);
      return value;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
  }
  throw new Error(`could not draw a unique ${column}`);
}

/** A new personal access token; the previous one stops working. */
export const issueAccessToken = (ctx: AppContext, user: UserRow): Promise<string> =>
  writeUniqueRandom(ctx, Number(user.id), 'access_token', 32);

/** Accounts imported from older databases may lack an invite code; they get one on first ask. */
export const affCodeOf = async (ctx: AppContext, user: UserRow): Promise<string> =>
  user.aff_code !== '' ? user.aff_code : writeUniqueRandom(ctx, Number(user.id), 'aff_code', 8);

/** The groups this user may pick for tokens: UserUsableGroups plus their own group. */
export function usableGroups(ctx: AppContext, user: UserRow): UserGroups {
  const ratios = ctx.options.get('GroupRatio');
  const ratioOf = (group: string) => (Object.hasOwn(ratios, group) ? (ratios[group] as number) : 1);
  const groups: UserGroups = {};
  for (const [group, desc] of Object.entries(ctx.options.get('UserUsableGroups'))) {
    groups[group] = { ratio: ratioOf(group), desc };
  }
  if (!Object.hasOwn(groups, user.group))
    groups[user.group] = { ratio: ratioOf(user.group), desc: MSG.ownGroupDesc };
  return groups;
}

/** Invite earnings into quota; the move and its log row (type 4, signed amounts) land together. */
export async function transferInviteEarnings(ctx: AppContext, user: UserRow, body: unknown): Promise<void> {
  const { quota } = parseInput(makeAffTransferSchema(ctx.options.get('QuotaPerUnit')), body);
  const id = Number(user.id);
  await inTransaction(ctx.db, async (trx) => {
    if (!(await transferAffQuota(trx, id, quota))) throw badRequest(MSG.affQuotaInsufficient);
    await recordLog(trx, {
      userId: id,
      username: user.username,
      type: LOG_TYPE.system,
      createdAt: ctx.clock.now(),
      ...affTransferLogText(ctx.options, quota),
    });
  });
  announce(ctx, id);
}
