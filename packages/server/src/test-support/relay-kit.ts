// Helpers for relay tests: channels, tokens and options written straight to the database (and
// announced on the cache bus, as the console's writers do), a real listening socket, balances and
// consume logs.
import type { AddressInfo } from 'node:net';
import { MOCK_AWS_CREDENTIALS } from '@sluice/mock-upstream';
import { CHANNEL_STATUS, LOG_TYPE } from '@sluice/shared';
import { syncAbilities } from '../db/abilities.js';
import { insertId } from '../db/insert-id.js';
import type { ChannelsTable, TokensTable } from '../db/tables.js';
import type { Insertable } from 'kysely';
import { randomString } from '../platform/random.js';
import { flushRelayBilling } from '../relay/pipeline/relay-runtime.js';
import type { TestApp } from './test-app.js';

/** A Bedrock channel's key (AccessKeyId|SecretAccessKey|Region) that the mock upstream's signer accepts. */
export const MOCK_AWS_KEY = `${MOCK_AWS_CREDENTIALS.accessKeyId}|${MOCK_AWS_CREDENTIALS.secretAccessKey}|us-east-1`;

/** An enabled OpenAI channel's row, with `fields` over the defaults. */
export const channelValues = (
  fields: Partial<Insertable<ChannelsTable>> = {},
): Insertable<ChannelsTable> => ({
  type: 1,
  name: `channel ${randomString(4)}`,
  key: `ch-${randomString(12)}`,
  status: CHANNEL_STATUS.enabled,
  models: 'gpt-4o-mini',
  group: 'default',
  other: '',
  model_mapping: '',
  status_code_mapping: '',
  other_info: '',
  setting: '',
  ...fields,
});

export async function addChannel(
  t: TestApp,
  fields: Partial<Insertable<ChannelsTable>> & { base_url: string },
): Promise<number> {
  const id = await insertId(t.db.db.insertInto('channels').values(channelValues(fields)), t.db.dialect);
  await syncAbilities(t.db.db, await channelRow(t, id));
  t.app.ctx.bus.publish('channels');
  return id;
}

/** A channel's row as it stands in the database. */
export const channelRow = (t: TestApp, id: number) =>
  t.db.db.selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

export interface TestToken {
  id: number;
  /** As a client sends it: sk- + 48 characters. */
  key: string;
}

export async function addToken(
  t: TestApp,
  userId: number,
  fields: Partial<Insertable<TokensTable>> = {},
): Promise<TestToken> {
  const key = randomString(48);
  const id = await insertId(
    t.db.db.insertInto('tokens').values({
      user_id: userId,
      key,
      name: `token ${randomString(4)}`,
      remain_quota: 1_000_000,
      model_limits: '',
      allow_ips: '',
      expired_time: -1,
      ...fields,
    }),
    t.db.dialect,
  );
  return { id, key: `sk-${key}` };
}

export async function setOptions(
  t: TestApp,
  values: Record<string, string | number | boolean | object>,
): Promise<void> {
  for (const [key, value] of Object.entries(values)) {
    await t.app.ctx.options.set(key, typeof value === 'object' ? JSON.stringify(value) : String(value));
  }
  await t.app.ctx.options.reload();
}

/** Waits for the billing of the calls made so far to be written (calls are answered before it is). */
export const billingWritten = (t: TestApp): Promise<void> => flushRelayBilling(t.app.ctx);

/** The user's consume log rows, newest first, once the calls made so far are billed. */
export async function consumeLogs(t: TestApp, userId: number) {
  await billingWritten(t);
  return t.db.db
    .selectFrom('logs')
    .selectAll()
    .where('user_id', '=', userId)
    .where('type', '=', LOG_TYPE.consume)
    .orderBy('id', 'desc')
    .execute();
}

/** The user's newest consume log row, once the calls made so far are billed. */
export async function lastConsumeLog(t: TestApp, userId: number) {
  const [log] = await consumeLogs(t, userId);
  if (!log) throw new Error(`user ${userId} has no consume log`);
  return log;
}

/** Starts listening on 127.0.0.1 (port 0) and returns the base URL. */
export async function listen(t: TestApp): Promise<string> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}

export interface Balances {
  userQuota: number;
  userUsed: number;
  requestCount: number;
  tokenRemain: number;
  tokenUsed: number;
  channelUsed: number;
  logQuota: number;
}

export async function balances(
  t: TestApp,
  ids: { userId: number; tokenId: number; channelIds: number[] },
): Promise<Balances> {
  // Calls are answered before their billing is written; read after the batch commits.
  await flushRelayBilling(t.app.ctx);
  const db = t.db.db;
  const user = await db
    .selectFrom('users')
    .selectAll()
    .where('id', '=', ids.userId)
    .executeTakeFirstOrThrow();
  const token = await db
    .selectFrom('tokens')
    .selectAll()
    .where('id', '=', ids.tokenId)
    .executeTakeFirstOrThrow();
  const channels = ids.channelIds.length
    ? await db.selectFrom('channels').select('used_quota').where('id', 'in', ids.channelIds).execute()
    : [];
  const logs = await db.selectFrom('logs').select('quota').where('user_id', '=', ids.userId).execute();
  return {
    userQuota: Number(user.quota),
    userUsed: Number(user.used_quota),
    requestCount: Number(user.request_count),
    tokenRemain: Number(token.remain_quota),
    tokenUsed: Number(token.used_quota),
    channelUsed: channels.reduce((sum, c) => sum + Number(c.used_quota), 0),
    logQuota: logs.reduce((sum, l) => sum + Number(l.quota), 0),
  };
}
