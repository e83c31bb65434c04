// The accounts and what they reach: users, their tokens, and the channels (from which the channel index
// is rebuilt). docs/import.md has the same mapping in prose.
import { randomString } from '../../platform/random.js';
import { mapOneApiChannel } from './one-api-channels.js';
import { has, identity, idOf, isSkip, rowOf } from './table-spec.js';
import type { ConvertContext, TableSpec } from './table-spec.js';
import { clip, flagOf, intOf, jsonTextOf, numberOf, textOf, unixSecondsOf } from './values.js';
import type { SourceRow } from './values.js';

const BCRYPT = /^\$2[abxy]\$\d{2}\$/;

export const USERS: TableSpec = {
  name: 'users',
  withLogs: false,
  reads: [
    'username',
    'password',
    'display_name',
    'role',
    'status',
    'email',
    'github_id',
    'wechat_id',
    'telegram_id',
    'linux_do_id',
    'access_token',
    'quota',
    'used_quota',
    'request_count',
    'group',
    'aff_code',
    'aff_count',
    'aff_quota',
    'aff_history',
    'aff_history_quota',
    'inviter_id',
    'created_at',
    'deleted_at',
    'setting',
  ],
  replaceOn: ['username'],
  renew: { aff_code: () => randomString(8), access_token: () => null },
  convert(row, ctx) {
    const id = idOf(row);
    if (isSkip(id)) return id;
    const username = identity(row.username, 'username', 64);
    if (isSkip(username)) return username;
    const password = textOf(row.password, '');
    if (!BCRYPT.test(password)) ctx.note('without a password (they sign in through OAuth, or reset it)');
    let affCode = textOf(row.aff_code, '').trim();
    if (affCode === '' || affCode.length > 32) {
      affCode = randomString(8);
      ctx.note('given a new invitation code (theirs was empty)');
    }
    const accessToken = textOf(row.access_token, '').trim();
    const setting = textOf(row.setting, '').trim();
    const settingJson = setting === '' ? null : jsonTextOf(setting, '');
    if (setting !== '' && settingJson === undefined) ctx.note('whose setting was not JSON (left unset)');
    const group = textOf(row.group, '').trim();
    return rowOf('users', {
      id,
      username,
      password,
      display_name: clip(textOf(row.display_name, ''), 64),
      role: intOf(row.role, 1),
      status: intOf(row.status, 1),
      email: clip(textOf(row.email, '').trim(), 255),
      github_id: clip(textOf(row.github_id, ''), 64),
      wechat_id: clip(textOf(row.wechat_id, ''), 64),
      telegram_id: clip(textOf(row.telegram_id, ''), 64),
      linux_do_id: clip(textOf(row.linux_do_id, ''), 64),
      // Unique: an empty token is no token.
      access_token: accessToken === '' || accessToken.length > 64 ? null : accessToken,
      quota: intOf(row.quota, 0),
      used_quota: intOf(row.used_quota, 0),
      request_count: intOf(row.request_count, 0),
      group: clip(group === '' ? 'default' : group, 64),
      aff_code: affCode,
      aff_count: intOf(row.aff_count, 0),
      aff_quota: intOf(row.aff_quota, 0),
      // new-api's column is aff_history (its field is aff_history_quota).
      aff_history_quota: intOf(has(row, 'aff_history_quota') ? row.aff_history_quota : row.aff_history, 0),
      inviter_id: intOf(row.inviter_id, 0),
      created_at: intOf(row.created_at, 0),
      deleted_at: unixSecondsOf(row.deleted_at),
      setting: settingJson ?? null,
      quota_warned_at: 0,
    });
  },
};

export const TOKENS: TableSpec = {
  name: 'tokens',
  withLogs: false,
  reads: [
    'user_id',
    'key',
    'status',
    'name',
    'created_time',
    'accessed_time',
    'expired_time',
    'remain_quota',
    'unlimited_quota',
    'used_quota',
    'model_limits_enabled',
    'model_limits',
    'models',
    'allow_ips',
    'subnet',
    'group',
    'deleted_at',
  ],
  replaceOn: ['key'],
  convert(row) {
    const id = idOf(row);
    if (isSkip(id)) return id;
    const key = identity(row.key, 'key', 64);
    if (isSkip(key)) return key;
    // one-api: `models` (the allowed models, comma-separated; empty = all) and `subnet` (CIDRs, commas).
    const modelLimits = textOf(has(row, 'model_limits') ? row.model_limits : row.models, '').trim();
    const limitsEnabled = has(row, 'model_limits_enabled')
      ? flagOf(row.model_limits_enabled, 0)
      : modelLimits === ''
        ? 0
        : 1;
    const allowIps = has(row, 'allow_ips')
      ? textOf(row.allow_ips, '')
      : textOf(row.subnet, '')
          .split(',')
          .map((s) => s.trim())
          .filter((s) => s !== '')
          .join('\n');
    return rowOf('tokens', {
      id,
      user_id: intOf(row.user_id, 0),
      key,
      status: intOf(row.status, 1),
      name: clip(textOf(row.name, ''), 255),
      created_time: intOf(row.created_time, 0),
      accessed_time: intOf(row.accessed_time, 0),
      expired_time: intOf(row.expired_time, -1),
      remain_quota: intOf(row.remain_quota, 0),
      unlimited_quota: flagOf(row.unlimited_quota, 0),
      used_quota: intOf(row.used_quota, 0),
      model_limits_enabled: limitsEnabled,
      model_limits: modelLimits,
      allow_ips: allowIps,
      group: clip(textOf(row.group, '').trim(), 64),
      deleted_at: unixSecondsOf(row.deleted_at),
    });
  },
};

/** A JSON column Sluice parses: kept when it is JSON, else `fallback` (and counted). */
function jsonColumn(row: SourceRow, column: string, fallback: string, ctx: ConvertContext): string {
  const text = jsonTextOf(row[column], fallback);
  if (text !== undefined) return text;
  ctx.note(`whose ${column} was not JSON (${fallback === '' ? 'left empty' : `replaced by ${fallback}`})`);
  return fallback;
}

export const CHANNELS: TableSpec = {
  name: 'channels',
  withLogs: false,
  reads: [
    'type',
    'key',
    'openai_organization',
    'test_model',
    'status',
    'name',
    'weight',
    'created_time',
    'test_time',
    'response_time',
    'base_url',
    'other',
    'balance',
    'balance_updated_time',
    'models',
    'group',
    'used_quota',
    'model_mapping',
    'status_code_mapping',
    'priority',
    'auto_ban',
    'other_info',
    'tag',
    'setting',
    'max_input_tokens',
    // one-api: vendor settings folded into other/key, and the system prompt kept in setting.
    'config',
    'system_prompt',
  ],
  convert(row, ctx) {
    const id = idOf(row);
    if (isSkip(id)) return id;
    let type = intOf(row.type, 1);
    let baseUrl = textOf(row.base_url, '').trim();
    let key = textOf(row.key, '');
    let other = textOf(row.other, '');
    if (ctx.kind === 'one-api') {
      const mapped = mapOneApiChannel(row);
      if (!mapped.ok) return { skip: mapped.reason };
      ({ type, baseUrl, key, other } = mapped);
      if (mapped.note) ctx.note(mapped.note);
    }
    if (baseUrl.length > 512) return { skip: 'base_url longer than 512 characters' };
    let setting = jsonColumn(row, 'setting', '{}', ctx);
    const systemPrompt = textOf(row.system_prompt, '');
    if (!has(row, 'setting') && systemPrompt !== '')
      setting = JSON.stringify({ system_prompt: systemPrompt });
    const group = textOf(row.group, 'default');
    return rowOf('channels', {
      id,
      type,
      key,
      openai_organization: clip(textOf(row.openai_organization, ''), 255),
      test_model: clip(textOf(row.test_model, ''), 255),
      status: intOf(row.status, 1),
      name: clip(textOf(row.name, ''), 255),
      weight: Math.max(0, intOf(row.weight, 0)),
      created_time: intOf(row.created_time, 0),
      test_time: intOf(row.test_time, 0),
      response_time: intOf(row.response_time, 0),
      base_url: baseUrl,
      other,
      balance: numberOf(row.balance, 0),
      balance_updated_time: intOf(row.balance_updated_time, 0),
      models: textOf(row.models, ''),
      group: clip(group, 255),
      used_quota: intOf(row.used_quota, 0),
      model_mapping: jsonColumn(row, 'model_mapping', '', ctx),
      status_code_mapping: jsonColumn(row, 'status_code_mapping', '', ctx),
      priority: intOf(row.priority, 0),
      // new-api leaves auto_ban NULL for "off"; one-api has no column (it always disabled failing channels).
      auto_ban: has(row, 'auto_ban') ? flagOf(row.auto_ban, 0) : 1,
      other_info: jsonColumn(row, 'other_info', '{}', ctx),
      tag: clip(textOf(row.tag, ''), 255),
      setting,
      max_input_tokens: intOf(row.max_input_tokens, 0),
    });
  },
};
