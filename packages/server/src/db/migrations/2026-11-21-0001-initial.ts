// Initial schema: every table the product needs. Frozen: later changes go in new dated migrations.
import { MysqlAdapter, PostgresAdapter, sql } from 'kysely';
import type { CreateTableBuilder, Kysely } from 'kysely';

type Dialect = 'sqlite' | 'postgres' | 'mysql';

function dialectOf(db: Kysely<any>): Dialect {
  const adapter = db.getExecutor().adapter;
  if (adapter instanceof PostgresAdapter) return 'postgres';
  if (adapter instanceof MysqlAdapter) return 'mysql';
  return 'sqlite';
}

export async function up(db: Kysely<any>): Promise<void> {
  const dialect = dialectOf(db);
  // Auto-increment primary key in each dialect's own words.
  const withId = <T extends string>(t: CreateTableBuilder<T, never>) =>
    dialect === 'postgres'
      ? t.addColumn('id', 'bigserial', (c) => c.primaryKey())
      : dialect === 'mysql'
        ? t.addColumn('id', 'bigint', (c) => c.primaryKey().autoIncrement())
        : t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  // MySQL cannot give TEXT a default; text columns are always written by the application.
  const text = 'text';
  const big = 'bigint';
  const str = (n: number) => sql.raw(`varchar(${n})`);
  const dbl = sql.raw(dialect === 'mysql' ? 'double' : 'double precision');

  await withId(db.schema.createTable('users'))
    .addColumn('username', str(64), (c) => c.notNull().unique())
    .addColumn('password', str(255), (c) => c.notNull())
    .addColumn('display_name', str(64), (c) => c.notNull().defaultTo(''))
    .addColumn('role', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('email', str(255), (c) => c.notNull().defaultTo(''))
    .addColumn('github_id', str(64), (c) => c.notNull().defaultTo(''))
    .addColumn('wechat_id', str(64), (c) => c.notNull().defaultTo(''))
    .addColumn('telegram_id', str(64), (c) => c.notNull().defaultTo(''))
    .addColumn('linux_do_id', str(64), (c) => c.notNull().defaultTo(''))
    .addColumn('access_token', str(64), (c) => c.unique())
    .addColumn('quota', big, (c) => c.notNull().defaultTo(0))
    .addColumn('used_quota', big, (c) => c.notNull().defaultTo(0))
    .addColumn('request_count', big, (c) => c.notNull().defaultTo(0))
    .addColumn('group', str(64), (c) => c.notNull().defaultTo('default'))
    .addColumn('aff_code', str(32), (c) => c.notNull().unique())
    .addColumn('aff_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('aff_quota', big, (c) => c.notNull().defaultTo(0))
    .addColumn('aff_history_quota', big, (c) => c.notNull().defaultTo(0))
    .addColumn('inviter_id', big, (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', big, (c) => c.notNull().defaultTo(0))
    .addColumn('deleted_at', big)
    .execute();
  for (const col of [
    'email',
    'github_id',
    'wechat_id',
    'telegram_id',
    'linux_do_id',
    'display_name',
    'inviter_id',
  ]) {
    await db.schema.createIndex(`idx_users_${col}`).on('users').column(col).execute();
  }

  await db.schema
    .createTable('sessions')
    .addColumn('id', str(64), (c) => c.primaryKey())
    .addColumn('user_id', big, (c) => c.notNull())
    .addColumn('created_at', big, (c) => c.notNull())
    .addColumn('expires_at', big, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('idx_sessions_user').on('sessions').column('user_id').execute();

  await withId(db.schema.createTable('verification_codes'))
    .addColumn('purpose', str(32), (c) => c.notNull())
    .addColumn('target', str(255), (c) => c.notNull())
    .addColumn('code', str(128), (c) => c.notNull())
    .addColumn('created_at', big, (c) => c.notNull())
    .addColumn('expires_at', big, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('idx_verification_lookup')
    .on('verification_codes')
    .columns(['purpose', 'target'])
    .execute();

  await db.schema
    .createTable('options')
    .addColumn('key', str(128), (c) => c.primaryKey())
    .addColumn('value', text, (c) => c.notNull())
    .execute();

  await withId(db.schema.createTable('tokens'))
    .addColumn('user_id', big, (c) => c.notNull())
    .addColumn('key', str(64), (c) => c.notNull().unique())
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('name', str(255), (c) => c.notNull().defaultTo(''))
    .addColumn('created_time', big, (c) => c.notNull().defaultTo(0))
    .addColumn('accessed_time', big, (c) => c.notNull().defaultTo(0))
    .addColumn('expired_time', big, (c) => c.notNull().defaultTo(-1))
    .addColumn('remain_quota', big, (c) => c.notNull().defaultTo(0))
    .addColumn('unlimited_quota', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('used_quota', big, (c) => c.notNull().defaultTo(0))
    .addColumn('model_limits_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('model_limits', text, (c) => c.notNull())
    .addColumn('allow_ips', text, (c) => c.notNull())
    .addColumn('group', str(64), (c) => c.notNull().defaultTo(''))
    .addColumn('deleted_at', big)
    .execute();
  await db.schema.createIndex('idx_tokens_user').on('tokens').column('user_id').execute();
  await db.schema.createIndex('idx_tokens_name').on('tokens').column('name').execute();

  await withId(db.schema.createTable('channels'))
    .addColumn('type', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('key', text, (c) => c.notNull())
    .addColumn('openai_organization', str(255), (c) => c.notNull().defaultTo(''))
    .addColumn('test_model', str(255), (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('name', str(255), (c) => c.notNull().defaultTo(''))
    .addColumn('weight', big, (c) => c.notNull().defaultTo(0))
    .addColumn('created_time', big, (c) => c.notNull().defaultTo(0))
    .addColumn('test_time', big, (c) => c.notNull().defaultTo(0))
    .addColumn('response_time', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('base_url', str(512), (c) => c.notNull().defaultTo(''))
    .addColumn('other', text, (c) => c.notNull())
    .addColumn('balance', dbl, (c) => c.notNull().defaultTo(0))
    .addColumn('balance_updated_time', big, (c) => c.notNull().defaultTo(0))
    .addColumn('models', text, (c) => c.notNull())
    .addColumn('group', str(255), (c) => c.notNull().defaultTo('default'))
    .addColumn('used_quota', big, (c) => c.notNull().defaultTo(0))
    .addColumn('model_mapping', text, (c) => c.notNull())
    .addColumn('status_code_mapping', text, (c) => c.notNull())
    .addColumn('priority', big, (c) => c.notNull().defaultTo(0))
    .addColumn('auto_ban', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('other_info', text, (c) => c.notNull())
    .addColumn('tag', str(255), (c) => c.notNull().defaultTo(''))
    .addColumn('setting', text, (c) => c.notNull())
    .addColumn('max_input_tokens', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('idx_channels_name').on('channels').column('name').execute();
  await db.schema.createIndex('idx_channels_tag').on('channels').column('tag').execute();

  await db.schema
    .createTable('abilities')
    .addColumn('group', str(64), (c) => c.notNull())
    .addColumn('model', str(255), (c) => c.notNull())
    .addColumn('channel_id', big, (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('priority', big, (c) => c.notNull().defaultTo(0))
    .addColumn('weight', big, (c) => c.notNull().defaultTo(0))
    .addColumn('tag', str(255), (c) => c.notNull().defaultTo(''))
    .addPrimaryKeyConstraint('pk_abilities', ['group', 'model', 'channel_id'])
    .execute();
  await db.schema.createIndex('idx_abilities_channel').on('abilities').column('channel_id').execute();

  await withId(db.schema.createTable('logs'))
    .addColumn('user_id', big, (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', big, (c) => c.notNull())
    .addColumn('type', 'integer', (c) => c.notNull())
    .addColumn('content', text, (c) => c.notNull())
    .addColumn('username', str(64), (c) => c.notNull().defaultTo(''))
    .addColumn('token_name', str(255), (c) => c.notNull().defaultTo(''))
    .addColumn('token_id', big, (c) => c.notNull().defaultTo(0))
    .addColumn('model_name', str(255), (c) => c.notNull().defaultTo(''))
    .addColumn('quota', big, (c) => c.notNull().defaultTo(0))
    .addColumn('prompt_tokens', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('completion_tokens', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('use_time', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_stream', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('channel_id', big, (c) => c.notNull().defaultTo(0))
    .addColumn('group', str(64), (c) => c.notNull().defaultTo(''))
    .addColumn('ip', str(64), (c) => c.notNull().defaultTo(''))
    .addColumn('other', text, (c) => c.notNull())
    .execute();
  // The console filters by time range plus one of these; each index leads with the filter column.
  await db.schema.createIndex('idx_logs_created_at').on('logs').column('created_at').execute();
  await db.schema.createIndex('idx_logs_type_created').on('logs').columns(['type', 'created_at']).execute();
  await db.schema
    .createIndex('idx_logs_user_created')
    .on('logs')
    .columns(['user_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('idx_logs_username_created')
    .on('logs')
    .columns(['username', 'created_at'])
    .execute();
  await db.schema
    .createIndex('idx_logs_token_created')
    .on('logs')
    .columns(['token_name', 'created_at'])
    .execute();
  await db.schema
    .createIndex('idx_logs_model_created')
    .on('logs')
    .columns(['model_name', 'created_at'])
    .execute();
  await db.schema
    .createIndex('idx_logs_channel_created')
    .on('logs')
    .columns(['channel_id', 'created_at'])
    .execute();

  await withId(db.schema.createTable('redemptions'))
    .addColumn('user_id', big, (c) => c.notNull().defaultTo(0))
    .addColumn('key', str(64), (c) => c.notNull().unique())
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('name', str(255), (c) => c.notNull().defaultTo(''))
    .addColumn('quota', big, (c) => c.notNull().defaultTo(0))
    .addColumn('created_time', big, (c) => c.notNull().defaultTo(0))
    .addColumn('redeemed_time', big, (c) => c.notNull().defaultTo(0))
    .addColumn('used_user_id', big, (c) => c.notNull().defaultTo(0))
    .addColumn('deleted_at', big)
    .execute();
  await db.schema.createIndex('idx_redemptions_name').on('redemptions').column('name').execute();

  await withId(db.schema.createTable('top_ups'))
    .addColumn('user_id', big, (c) => c.notNull())
    .addColumn('amount', big, (c) => c.notNull().defaultTo(0))
    .addColumn('money', dbl, (c) => c.notNull().defaultTo(0))
    .addColumn('trade_no', str(64), (c) => c.notNull().unique())
    .addColumn('payment_method', str(32), (c) => c.notNull().defaultTo(''))
    .addColumn('create_time', big, (c) => c.notNull().defaultTo(0))
    .addColumn('complete_time', big, (c) => c.notNull().defaultTo(0))
    .addColumn('status', str(16), (c) => c.notNull().defaultTo('pending'))
    .execute();
  await db.schema.createIndex('idx_top_ups_user').on('top_ups').column('user_id').execute();

  await withId(db.schema.createTable('midjourneys'))
    .addColumn('code', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('user_id', big, (c) => c.notNull().defaultTo(0))
    .addColumn('action', str(40), (c) => c.notNull().defaultTo(''))
    .addColumn('mj_id', str(64), (c) => c.notNull().defaultTo(''))
    .addColumn('prompt', text, (c) => c.notNull())
    .addColumn('prompt_en', text, (c) => c.notNull())
    .addColumn('description', text, (c) => c.notNull())
    .addColumn('state', text, (c) => c.notNull())
    .addColumn('submit_time', big, (c) => c.notNull().defaultTo(0))
    .addColumn('start_time', big, (c) => c.notNull().defaultTo(0))
    .addColumn('finish_time', big, (c) => c.notNull().defaultTo(0))
    .addColumn('image_url', text, (c) => c.notNull())
    .addColumn('status', str(20), (c) => c.notNull().defaultTo(''))
    .addColumn('progress', str(30), (c) => c.notNull().defaultTo(''))
    .addColumn('fail_reason', text, (c) => c.notNull())
    .addColumn('channel_id', big, (c) => c.notNull().defaultTo(0))
    .addColumn('quota', big, (c) => c.notNull().defaultTo(0))
    .addColumn('buttons', text, (c) => c.notNull())
    .addColumn('properties', text, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('idx_midjourneys_user_submit')
    .on('midjourneys')
    .columns(['user_id', 'submit_time'])
    .execute();
  await db.schema.createIndex('idx_midjourneys_submit').on('midjourneys').column('submit_time').execute();
  await db.schema.createIndex('idx_midjourneys_mj_id').on('midjourneys').column('mj_id').execute();

  await withId(db.schema.createTable('tasks'))
    .addColumn('created_at', big, (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', big, (c) => c.notNull().defaultTo(0))
    .addColumn('task_id', str(191), (c) => c.notNull().defaultTo(''))
    .addColumn('platform', str(30), (c) => c.notNull().defaultTo(''))
    .addColumn('user_id', big, (c) => c.notNull().defaultTo(0))
    .addColumn('channel_id', big, (c) => c.notNull().defaultTo(0))
    .addColumn('quota', big, (c) => c.notNull().defaultTo(0))
    .addColumn('action', str(40), (c) => c.notNull().defaultTo(''))
    .addColumn('status', str(20), (c) => c.notNull().defaultTo(''))
    .addColumn('fail_reason', text, (c) => c.notNull())
    .addColumn('submit_time', big, (c) => c.notNull().defaultTo(0))
    .addColumn('start_time', big, (c) => c.notNull().defaultTo(0))
    .addColumn('finish_time', big, (c) => c.notNull().defaultTo(0))
    .addColumn('progress', str(20), (c) => c.notNull().defaultTo(''))
    .addColumn('properties', text, (c) => c.notNull())
    .addColumn('data', text, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('idx_tasks_user_submit')
    .on('tasks')
    .columns(['user_id', 'submit_time'])
    .execute();
  await db.schema.createIndex('idx_tasks_submit').on('tasks').column('submit_time').execute();
  await db.schema.createIndex('idx_tasks_task_id').on('tasks').column('task_id').execute();

  await withId(db.schema.createTable('quota_data'))
    .addColumn('user_id', big, (c) => c.notNull())
    .addColumn('username', str(64), (c) => c.notNull().defaultTo(''))
    .addColumn('model_name', str(255), (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', big, (c) => c.notNull())
    .addColumn('token_used', big, (c) => c.notNull().defaultTo(0))
    .addColumn('count', big, (c) => c.notNull().defaultTo(0))
    .addColumn('quota', big, (c) => c.notNull().defaultTo(0))
    .addUniqueConstraint('uq_quota_data_bucket', ['user_id', 'model_name', 'created_at'])
    .execute();
  await db.schema.createIndex('idx_quota_data_created').on('quota_data').column('created_at').execute();

  await db.schema
    .createTable('job_leases')
    .addColumn('name', str(64), (c) => c.primaryKey())
    .addColumn('holder', str(64), (c) => c.notNull())
    .addColumn('expires_at', big, (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'job_leases',
    'quota_data',
    'tasks',
    'midjourneys',
    'top_ups',
    'redemptions',
    'logs',
    'abilities',
    'channels',
    'tokens',
    'options',
    'verification_codes',
    'sessions',
    'users',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
