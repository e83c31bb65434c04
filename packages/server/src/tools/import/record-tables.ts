// What was done with the accounts: redemption codes, top-ups, drawings, tasks, and (with --with-logs)
// the usage logs and hourly statistics. docs/import.md has the same mapping in prose.
import { REDEMPTION_STATUS } from '@sluice/shared';
import { SECONDS_BELOW } from '../../db/migrations/2026-11-25-0001-midjourney-times-in-ms.js';
import { has, identity, idOf, isSkip, rowOf } from './table-spec.js';
import type { TableSpec } from './table-spec.js';
import { clip, flagOf, intOf, jsonObjectOf, numberOf, textOf, unixSecondsOf } from './values.js';

export const REDEMPTIONS: TableSpec = {
  name: 'redemptions',
  withLogs: false,
  reads: [
    'user_id',
    'key',
    'status',
    'name',
    'quota',
    'created_time',
    'redeemed_time',
    'used_user_id',
    'deleted_at',
    'expired_time',
  ],
  replaceOn: ['key'],
  convert(row, ctx) {
    const id = idOf(row);
    if (isSkip(id)) return id;
    const key = identity(row.key, 'key', 64);
    if (isSkip(key)) return key;
    let status = intOf(row.status, REDEMPTION_STATUS.unused);
    // Sluice's codes do not expire: one already past new-api's expiry must not become redeemable again.
    const expiry = intOf(row.expired_time, 0);
    if (status === REDEMPTION_STATUS.unused && expiry > 0) {
      if (expiry < ctx.now) {
        status = REDEMPTION_STATUS.disabled;
        ctx.note('unused past their expiry (imported disabled)');
      } else {
        ctx.note('unused with a future expiry (imported without it: Sluice codes do not expire)');
      }
    }
    return rowOf('redemptions', {
      id,
      user_id: intOf(row.user_id, 0),
      key,
      status,
      name: clip(textOf(row.name, ''), 255),
      quota: intOf(row.quota, 0),
      created_time: intOf(row.created_time, 0),
      redeemed_time: intOf(row.redeemed_time, 0),
      used_user_id: intOf(row.used_user_id, 0),
      deleted_at: unixSecondsOf(row.deleted_at),
    });
  },
};

export const TOP_UPS: TableSpec = {
  name: 'top_ups',
  withLogs: false,
  reads: [
    'user_id',
    'amount',
    'money',
    'trade_no',
    'payment_method',
    'create_time',
    'complete_time',
    'status',
  ],
  replaceOn: ['trade_no'],
  convert(row) {
    const id = idOf(row);
    if (isSkip(id)) return id;
    const tradeNo = identity(row.trade_no, 'trade_no', 64);
    if (isSkip(tradeNo)) return tradeNo;
    const status = textOf(row.status, '').trim();
    return rowOf('top_ups', {
      id,
      user_id: intOf(row.user_id, 0),
      amount: intOf(row.amount, 0),
      money: numberOf(row.money, 0),
      trade_no: tradeNo,
      payment_method: clip(textOf(row.payment_method, ''), 32),
      create_time: intOf(row.create_time, 0),
      complete_time: intOf(row.complete_time, 0),
      status: clip(status === '' ? 'pending' : status, 16),
    });
  },
};

/** Drawing times in milliseconds, as new-api stores them; earlier versions stored seconds. */
const milliseconds = (value: unknown): number => {
  const n = intOf(value, 0);
  return n > 0 && n < SECONDS_BELOW ? n * 1000 : n;
};

export const MIDJOURNEYS: TableSpec = {
  name: 'midjourneys',
  withLogs: false,
  reads: [
    'code',
    'user_id',
    'action',
    'mj_id',
    'prompt',
    'prompt_en',
    'description',
    'state',
    'submit_time',
    'start_time',
    'finish_time',
    'image_url',
    'status',
    'progress',
    'fail_reason',
    'channel_id',
    'quota',
    'buttons',
    'properties',
    'token_id',
  ],
  convert(row, ctx) {
    const id = idOf(row);
    if (isSkip(id)) return id;
    const mjId = textOf(row.mj_id, '').trim();
    if (mjId.length > 64) return { skip: 'mj_id longer than 64 characters' };
    if (intOf(row.submit_time, 0) > 0 && intOf(row.submit_time, 0) < SECONDS_BELOW) {
      ctx.note('with times in seconds (converted to milliseconds)');
    }
    return rowOf('midjourneys', {
      id,
      code: intOf(row.code, 0),
      user_id: intOf(row.user_id, 0),
      action: clip(textOf(row.action, ''), 40),
      mj_id: mjId,
      prompt: textOf(row.prompt, ''),
      prompt_en: textOf(row.prompt_en, ''),
      description: textOf(row.description, ''),
      state: textOf(row.state, ''),
      submit_time: milliseconds(row.submit_time),
      start_time: milliseconds(row.start_time),
      finish_time: milliseconds(row.finish_time),
      image_url: textOf(row.image_url, ''),
      status: clip(textOf(row.status, ''), 20),
      progress: clip(textOf(row.progress, ''), 30),
      fail_reason: textOf(row.fail_reason, ''),
      channel_id: intOf(row.channel_id, 0),
      quota: intOf(row.quota, 0),
      buttons: textOf(row.buttons, ''),
      properties: textOf(row.properties, ''),
      // The source's mj_id is the upstream's own id.
      upstream_task_id: '',
      token_id: intOf(row.token_id, 0),
      notify_hook: null,
    });
  },
};

export const TASKS: TableSpec = {
  name: 'tasks',
  withLogs: false,
  reads: [
    'created_at',
    'updated_at',
    'task_id',
    'platform',
    'user_id',
    'channel_id',
    'quota',
    'action',
    'status',
    'fail_reason',
    'submit_time',
    'start_time',
    'finish_time',
    'progress',
    'properties',
    'data',
    'private_data',
  ],
  convert(row, ctx) {
    const id = idOf(row);
    if (isSkip(id)) return id;
    const taskId = textOf(row.task_id, '').trim();
    if (taskId.length > 191) return { skip: 'task_id longer than 191 characters' };
    // Recent new-api versions show their own task_… id and keep the upstream's in private_data.
    const hidden = jsonObjectOf(row.private_data);
    const upstreamTaskId = textOf(hidden.upstream_task_id, '').trim();
    if (upstreamTaskId !== '') ctx.note('whose upstream task id came from private_data');
    return rowOf('tasks', {
      id,
      created_at: intOf(row.created_at, 0),
      updated_at: intOf(row.updated_at, 0),
      task_id: taskId,
      platform: clip(textOf(row.platform, ''), 30),
      user_id: intOf(row.user_id, 0),
      channel_id: intOf(row.channel_id, 0),
      quota: intOf(row.quota, 0),
      action: clip(textOf(row.action, ''), 40),
      status: clip(textOf(row.status, ''), 20),
      fail_reason: textOf(row.fail_reason, ''),
      submit_time: intOf(row.submit_time, 0),
      start_time: intOf(row.start_time, 0),
      finish_time: intOf(row.finish_time, 0),
      progress: clip(textOf(row.progress, ''), 20),
      properties: textOf(row.properties, ''),
      data: textOf(row.data, ''),
      upstream_task_id: clip(upstreamTaskId, 191),
      token_id: intOf(hidden.token_id, 0),
    });
  },
};

export const LOGS: TableSpec = {
  name: 'logs',
  withLogs: true,
  reads: [
    'user_id',
    'created_at',
    'type',
    'content',
    'username',
    'token_name',
    'token_id',
    'model_name',
    'quota',
    'prompt_tokens',
    'completion_tokens',
    'use_time',
    'elapsed_time',
    'is_stream',
    'channel_id',
    'group',
    'ip',
    'other',
  ],
  convert(row) {
    const id = idOf(row);
    if (isSkip(id)) return id;
    return rowOf('logs', {
      id,
      user_id: intOf(row.user_id, 0),
      created_at: intOf(row.created_at, 0),
      type: intOf(row.type, 0),
      content: textOf(row.content, ''),
      username: clip(textOf(row.username, ''), 64),
      token_name: clip(textOf(row.token_name, ''), 255),
      token_id: intOf(row.token_id, 0),
      model_name: clip(textOf(row.model_name, ''), 255),
      quota: intOf(row.quota, 0),
      prompt_tokens: intOf(row.prompt_tokens, 0),
      completion_tokens: intOf(row.completion_tokens, 0),
      // one-api: elapsed_time in milliseconds; new-api and Sluice: use_time in seconds.
      use_time: has(row, 'use_time') ? intOf(row.use_time, 0) : Math.round(intOf(row.elapsed_time, 0) / 1000),
      is_stream: flagOf(row.is_stream, 0),
      channel_id: intOf(row.channel_id, 0),
      group: clip(textOf(row.group, ''), 64),
      ip: clip(textOf(row.ip, ''), 64),
      other: textOf(row.other, ''),
    });
  },
};

export const QUOTA_DATA: TableSpec = {
  name: 'quota_data',
  withLogs: true,
  reads: ['user_id', 'username', 'model_name', 'created_at', 'token_used', 'count', 'quota'],
  // new-api keys its hours by username too: a renamed user's two rows for one hour become one.
  mergeOn: ['user_id', 'model_name', 'created_at'],
  convert(row) {
    const id = idOf(row);
    if (isSkip(id)) return id;
    return rowOf('quota_data', {
      id,
      user_id: intOf(row.user_id, 0),
      username: clip(textOf(row.username, ''), 64),
      model_name: clip(textOf(row.model_name, ''), 255),
      created_at: intOf(row.created_at, 0),
      token_used: intOf(row.token_used, 0),
      count: intOf(row.count, 0),
      quota: intOf(row.quota, 0),
    });
  },
};
