// Reference declarations of the console API's tokens, redemption codes, logs, dashboard, pricing,
// drawings and tasks routes (features/tokens, redemptions, logs, dashboard, pricing, tasks).
import { z } from 'zod';
import {
  dashboardQuery,
  logFilterQuery,
  logListQuery,
  logPurgeQuery,
  mjListQuery,
  redemptionCreateSchema,
  redemptionListQuery,
  redemptionSearchQuery,
  redemptionStatusSchema,
  redemptionUpdateSchema,
  taskListQuery,
  tokenCreateSchema,
  tokenListQuery,
  tokenSearchQuery,
  tokenStatusSchema,
  tokenUpdateSchema,
} from '@sluice/shared';
import { arrayOf, count, envelope, listOf, nothing, pageOf, textList } from './route-doc.js';
import type { RouteDoc } from './route-doc.js';
import { ref } from './shared-types.js';

/** `?status_only=true` on the PUT routes of tokens and redemption codes. */
const statusOnlyQuery = z.object({ status_only: z.string().optional() });
const statusOnlyNote = {
  status_only: '`true`: only enable (1) or disable (2), with the body `{id, status}`.',
};
/** A body that is one of two shapes, each titled. */
const eitherBody = (change: z.ZodType, status: z.ZodType) => ({
  oneOf: [change.meta({ title: 'Change' }), status.meta({ title: 'With status_only' })].map((s) =>
    z.toJSONSchema(s, { io: 'input', unrepresentable: 'any' }),
  ),
});

const paging0 = {
  p: 'Page, from 0 (from 1 with `page_size`).',
  size: 'Rows of a plain-array page (default 10, at most 100).',
  page_size: 'Page size (at most 100); asks for the page object.',
};
const logNotes = {
  p: 'Page, from 1.',
  page_size: 'Page size (default 10, at most 100).',
  type: 'Log type: 0 all, 1 top-up, 2 consumption, 3 management, 4 system, 5 error.',
  start_timestamp: 'Unix seconds, inclusive.',
  end_timestamp: 'Unix seconds, inclusive.',
  username: 'Admins only.',
  channel: 'Channel id; admins only.',
};
const recordNotes = {
  p: 'Page, from 0.',
  page_size: 'Page size (default 10, at most 100).',
  channel_id: 'Admins only.',
  start_timestamp: 'Submit time from (drawings: unix milliseconds; tasks: unix seconds).',
  end_timestamp: 'Submit time to (same unit).',
};
const dashboardNotes = {
  username: 'Admins only: one user.',
  start_timestamp: 'Unix seconds; default 30 days before the end.',
  end_timestamp: 'Unix seconds; default now.',
  granularity: 'Bucket size; default the DataExportDefaultTime setting.',
  utc_offset: 'Minutes east of UTC, so days and weeks start at the viewer’s midnight.',
};

const tokenList = envelope(listOf(ref('TokenView')));
const redemptionList = envelope(listOf(ref('RedemptionView')));

/** GET routes served with and without the trailing slash, alike for a user and for admins. */
const listPair = (
  path: string,
  selfPath: string,
  base: Omit<RouteDoc, 'method' | 'path' | 'aliases' | 'auth' | 'summary'>,
  summaries: readonly [string, string],
): RouteDoc[] => [
  { ...base, method: 'GET', path, aliases: [path.slice(0, -1)], auth: 'admin', summary: summaries[0] },
  {
    ...base,
    method: 'GET',
    path: selfPath,
    aliases: [selfPath.slice(0, -1)],
    auth: 'user',
    summary: summaries[1],
  },
];

export const CONSOLE_RECORDS_DOCS: readonly RouteDoc[] = [
  // Tokens
  {
    method: 'GET',
    path: '/api/token/',
    aliases: ['/api/token'],
    tag: 'Tokens',
    auth: 'user',
    summary: "List the caller's tokens",
    query: tokenListQuery,
    notes: paging0,
    answer: tokenList,
  },
  {
    method: 'GET',
    path: '/api/token/search',
    tag: 'Tokens',
    auth: 'user',
    summary: "Search the caller's tokens by name or key",
    query: tokenSearchQuery,
    notes: { ...paging0, keyword: 'Part of the name.', token: 'Part of the key, with or without `sk-`.' },
    answer: tokenList,
  },
  {
    method: 'GET',
    path: '/api/token/{id}',
    tag: 'Tokens',
    auth: 'user',
    summary: 'One of the caller’s tokens',
    params: { id: 'The token id.' },
    answer: envelope(ref('TokenView')),
  },
  {
    method: 'POST',
    path: '/api/token/',
    aliases: ['/api/token'],
    tag: 'Tokens',
    auth: 'user',
    summary: 'Create tokens',
    description: 'Keys are `sk-` + 48 characters; `key` is answered without `sk-`.',
    body: tokenCreateSchema,
    notes: {
      expired_time: 'Unix seconds, or -1 for never.',
      model_limits: 'Comma-separated models the token may call, with model_limits_enabled.',
      allow_ips: 'One IP address or CIDR range per line; empty: any address.',
      group: "Empty: the owner's group.",
      count: 'How many tokens to create; names after the first get a random suffix.',
    },
    answer: envelope(arrayOf(ref('TokenView'))),
  },
  {
    method: 'PUT',
    path: '/api/token/',
    aliases: ['/api/token'],
    tag: 'Tokens',
    auth: 'user',
    summary: 'Change a token, or enable or disable it',
    description: 'Absent fields keep their value.',
    query: statusOnlyQuery,
    body: eitherBody(tokenUpdateSchema, tokenStatusSchema),
    notes: statusOnlyNote,
    answer: envelope(ref('TokenView')),
  },
  {
    method: 'DELETE',
    path: '/api/token/{id}',
    aliases: ['/api/token/{id}/'],
    tag: 'Tokens',
    auth: 'user',
    summary: 'Delete one of the caller’s tokens',
    params: { id: 'The token id.' },
    answer: envelope(nothing),
  },

  // Redemption codes
  {
    method: 'GET',
    path: '/api/redemption/',
    aliases: ['/api/redemption'],
    tag: 'Redemption codes',
    auth: 'admin',
    summary: 'List redemption codes, newest first',
    query: redemptionListQuery,
    notes: paging0,
    answer: redemptionList,
  },
  {
    method: 'GET',
    path: '/api/redemption/search',
    tag: 'Redemption codes',
    auth: 'admin',
    summary: 'Search redemption codes by id or name',
    query: redemptionSearchQuery,
    notes: paging0,
    answer: redemptionList,
  },
  {
    method: 'GET',
    path: '/api/redemption/{id}',
    tag: 'Redemption codes',
    auth: 'admin',
    summary: 'One redemption code',
    params: { id: 'The code id.' },
    answer: envelope(ref('RedemptionView')),
  },
  {
    method: 'POST',
    path: '/api/redemption/',
    aliases: ['/api/redemption'],
    tag: 'Redemption codes',
    auth: 'admin',
    summary: 'Create redemption codes',
    body: redemptionCreateSchema,
    answer: envelope({ ...textList, description: 'The new codes.' }),
  },
  {
    method: 'PUT',
    path: '/api/redemption/',
    aliases: ['/api/redemption'],
    tag: 'Redemption codes',
    auth: 'admin',
    summary: 'Rename a code or change its quota, or enable or disable it',
    query: statusOnlyQuery,
    body: eitherBody(redemptionUpdateSchema, redemptionStatusSchema),
    notes: statusOnlyNote,
    answer: envelope(ref('RedemptionView')),
  },
  {
    method: 'DELETE',
    path: '/api/redemption/{id}',
    aliases: ['/api/redemption/{id}/'],
    tag: 'Redemption codes',
    auth: 'admin',
    summary: 'Delete a redemption code',
    params: { id: 'The code id.' },
    answer: envelope(nothing),
  },

  // Logs and usage
  ...listPair(
    '/api/log/',
    '/api/log/self/',
    { tag: 'Logs and usage', query: logListQuery, notes: logNotes, answer: envelope(pageOf(ref('LogItem'))) },
    ['Usage logs of every user, newest first', "The caller's usage logs, newest first"],
  ),
  {
    method: 'DELETE',
    path: '/api/log/',
    aliases: ['/api/log'],
    tag: 'Logs and usage',
    auth: 'root',
    summary: 'Delete the logs older than a time',
    query: logPurgeQuery,
    notes: { target_timestamp: 'Unix seconds.' },
    answer: envelope({ ...count, description: 'How many were deleted.' }),
  },
  {
    method: 'GET',
    path: '/api/log/stat',
    tag: 'Logs and usage',
    auth: 'admin',
    summary: 'Consumption within the log filters',
    query: logFilterQuery,
    notes: logNotes,
    answer: envelope(ref('LogStat')),
  },
  {
    method: 'GET',
    path: '/api/log/self/stat',
    tag: 'Logs and usage',
    auth: 'user',
    summary: "The caller's consumption within the log filters",
    query: logFilterQuery,
    notes: logNotes,
    answer: envelope(ref('LogStat')),
  },
  ...listPair(
    '/api/data/',
    '/api/data/self/',
    {
      tag: 'Logs and usage',
      query: dashboardQuery,
      notes: dashboardNotes,
      answer: envelope(arrayOf(ref('DashboardRow'))),
    },
    [
      'Usage per model and time bucket, of everyone or one user',
      "The caller's usage per model and time bucket",
    ],
  ),
  {
    method: 'GET',
    path: '/api/pricing',
    tag: 'Logs and usage',
    auth: 'public',
    summary: "The models and their prices, for the caller's groups (visitors: the default group)",
    answer: envelope(arrayOf(ref('PricingEntry')), {
      group_ratio: { type: 'object', additionalProperties: { type: 'number' } },
      usable_group: {
        type: 'object',
        description: 'Group → description, for the groups the caller may use.',
        additionalProperties: { type: 'string' },
      },
    }),
  },

  // Drawings and tasks
  ...listPair(
    '/api/mj/',
    '/api/mj/self/',
    {
      tag: 'Drawings and tasks',
      query: mjListQuery,
      notes: { ...recordNotes, mj_id: 'A drawing id.' },
      answer: envelope(arrayOf(ref('MidjourneyItem'))),
    },
    ['Midjourney drawings of every user', "The caller's Midjourney drawings"],
  ),
  ...listPair(
    '/api/task/',
    '/api/task/self/',
    {
      tag: 'Drawings and tasks',
      query: taskListQuery,
      notes: { ...recordNotes, task_id: 'A task id.' },
      answer: envelope(arrayOf(ref('TaskItem'))),
    },
    ['Asynchronous tasks (Suno) of every user', "The caller's asynchronous tasks (Suno)"],
  ),
];
