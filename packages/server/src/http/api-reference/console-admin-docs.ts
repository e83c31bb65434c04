// Reference declarations of the console API's user management, site settings and reconciliation
// routes (features/users, options, reconcile).
import { z } from 'zod';
import {
  updateOptionSchema,
  userCreateSchema,
  userListQuerySchema,
  userManageSchema,
  userSearchQuerySchema,
  userUpdateSchema,
} from '@sluice/shared';
import { arrayOf, envelope, listOf, nothing, textList } from './route-doc.js';
import type { RouteDoc } from './route-doc.js';
import { ref } from './shared-types.js';

const userList = listOf(ref('PublicUser'));
const paging0 = {
  p: 'Page, from 0 (from 1 with `page_size`).',
  page_size: 'Page size (at most 100); asks for the page object.',
};

export const CONSOLE_ADMIN_DOCS: readonly RouteDoc[] = [
  // Users
  {
    method: 'GET',
    path: '/api/user/',
    tag: 'Users',
    auth: 'admin',
    summary: 'List users',
    query: userListQuerySchema,
    notes: paging0,
    answer: envelope(userList),
  },
  {
    method: 'GET',
    path: '/api/user/search',
    tag: 'Users',
    auth: 'admin',
    summary: 'Search users by id, username, display name or email, and group',
    query: userSearchQuerySchema,
    notes: paging0,
    answer: envelope(userList),
  },
  {
    method: 'GET',
    path: '/api/user/{id}',
    tag: 'Users',
    auth: 'admin',
    summary: 'One user',
    params: { id: 'The user id.' },
    answer: envelope(ref('PublicUser')),
  },
  {
    method: 'POST',
    path: '/api/user/',
    tag: 'Users',
    auth: 'admin',
    summary: 'Create a user (of a lower role than the caller)',
    body: userCreateSchema,
    notes: { role: '1 user, 10 admin (below the caller).' },
    answer: envelope(ref('PublicUser')),
  },
  {
    method: 'PUT',
    path: '/api/user/',
    tag: 'Users',
    auth: 'admin',
    summary: 'Change a user of a lower role (or, for root, itself)',
    description: 'Absent fields, an empty password and an empty display name keep their value.',
    body: userUpdateSchema,
    answer: envelope(ref('PublicUser')),
  },
  {
    method: 'POST',
    path: '/api/user/manage',
    tag: 'Users',
    auth: 'admin',
    summary: 'Promote, demote, enable, disable or delete a user, or add to its quota',
    body: userManageSchema,
    notes: { value: 'add_quota only: the quota to add (negative subtracts).' },
    answer: envelope(ref('ManageResult')),
  },

  // Settings
  {
    method: 'GET',
    path: '/api/option/',
    tag: 'Settings',
    auth: 'root',
    summary: 'Every site setting as text (secrets left out)',
    answer: envelope(arrayOf(ref('OptionEntry'))),
  },
  {
    method: 'PUT',
    path: '/api/option/',
    tag: 'Settings',
    auth: 'root',
    summary: 'Change one site setting',
    description: "The value is checked against the setting's type before it is stored.",
    body: updateOptionSchema,
    answer: envelope(nothing),
  },
  {
    method: 'POST',
    path: '/api/option/rest_model_ratio',
    tag: 'Settings',
    auth: 'root',
    summary: 'Reset the model ratios to their defaults',
    answer: envelope(nothing),
  },
  {
    method: 'GET',
    path: '/api/group/',
    tag: 'Settings',
    auth: 'admin',
    summary: 'The group names (keys of GroupRatio)',
    answer: envelope(textList),
  },

  // Reconciliation
  {
    method: 'GET',
    path: '/api/reconcile',
    tag: 'Reconciliation',
    auth: 'root',
    summary: "Check that a period's log rows account for every change of the balances",
    description:
      'From the latest snapshot at or before start_timestamp (0: from the beginning; absent: from the latest snapshot) to the first snapshot at or after end_timestamp (absent, or none taken since: now). `npm run reconcile` prints the same report.',
    query: z.object({
      start_timestamp: z
        .string()
        .regex(/^\d{1,12}$/)
        .optional(),
      end_timestamp: z
        .string()
        .regex(/^\d{1,12}$/)
        .optional(),
    }),
    notes: { start_timestamp: 'Unix seconds.', end_timestamp: 'Unix seconds.' },
    answer: envelope(ref('ReconcileReport')),
  },
  {
    method: 'GET',
    path: '/api/reconcile/snapshots',
    tag: 'Reconciliation',
    auth: 'root',
    summary: 'The balance snapshots taken (unix seconds)',
    answer: envelope(arrayOf({ type: 'integer' })),
  },
  {
    method: 'POST',
    path: '/api/reconcile/snapshot',
    tag: 'Reconciliation',
    auth: 'root',
    summary:
      'Take a balance snapshot when the period since the last one reconciles (or regardless, with accept)',
    body: z.object({ accept: z.boolean().optional() }),
    notes: { accept: 'true: take it even with differences, which become part of the new starting point.' },
    answer: envelope(ref('SnapshotResult')),
  },
];
