// A Suno submit from request to charged task: the body checked, the action's model allowed and priced,
// the channel chosen (a continuation goes to the channel of the task it continues, with that
// upstream's id), the price held, the upstream asked, and an accepted task written and charged in one
// transaction under an id of Sluice's own. A refused submit is passed on and costs nothing.
import { randomUUID } from 'node:crypto';
import { CHANNEL_STATUS } from '@sluice/shared';
import { z } from 'zod';
import { checkModelAllowed } from '../../auth/relay-auth.js';
import type { RelayCaller } from '../../auth/relay-auth.js';
import { parseOrThrow } from '../../inbound/openai-shared.js';
import { RelayError } from '../../ir/errors.js';
import { pickChannel } from '../../pipeline/channel-index.js';
import type { ChannelIndex, RelayChannel } from '../../pipeline/channel-index.js';
import type { RelayRuntime } from '../../pipeline/relay-runtime.js';
import { taskPlatformOf } from '../platforms.js';
import { chargeAcceptedTask, holdTaskQuota, releaseTaskHold } from '../task-ledger.js';
import { SUNO_MODELS } from './task-view.js';
import type { SunoAction } from './task-view.js';
import { submitToSuno } from './upstream.js';

const text = (field: string) => z.string({ error: `${field} must be a string` }).nullish();

/** The fields Sluice reads; any other field goes to the upstream untouched. */
const submitSchema = z.looseObject({
  prompt: text('prompt'),
  gpt_description_prompt: text('gpt_description_prompt'),
  mv: text('mv'),
  title: text('title'),
  tags: text('tags'),
  negative_tags: text('negative_tags'),
  task_id: text('task_id'),
  continue_clip_id: text('continue_clip_id'),
  continue_at: z.number({ error: 'continue_at must be a number (seconds)' }).min(0).nullish(),
  make_instrumental: z.boolean({ error: 'make_instrumental must be true or false' }).nullish(),
});
type SubmitBody = z.output<typeof submitSchema>;

/** What the row's `properties` keeps of the request: what was asked, each text cut to a sane length. */
const KEPT_PROPERTIES = [
  'prompt',
  'gpt_description_prompt',
  'mv',
  'title',
  'tags',
  'negative_tags',
  'make_instrumental',
  'continue_at',
  'continue_clip_id',
  'task_id',
] as const;
const KEPT_TEXT_LENGTH = 2000;

function propertiesOf(body: SubmitBody): string {
  const kept: Record<string, unknown> = {};
  for (const name of KEPT_PROPERTIES) {
    const value = body[name];
    if (value === undefined || value === null) continue;
    kept[name] = typeof value === 'string' ? value.slice(0, KEPT_TEXT_LENGTH) : value;
  }
  return JSON.stringify(kept);
}

const filled = (value: string | null | undefined): value is string =>
  typeof value === 'string' && value.trim() !== '';

function checkSubmit(action: SunoAction, raw: unknown): SubmitBody {
  const body = parseOrThrow(submitSchema, raw);
  if (action === 'LYRICS' && !filled(body.prompt)) {
    throw new RelayError(400, 'prompt is required: the lyrics are written from it', 'invalid_request');
  }
  if (filled(body.continue_clip_id) && !filled(body.task_id)) {
    throw new RelayError(
      400,
      'task_id is required with continue_clip_id: it names the task whose clip is continued',
      'invalid_request',
    );
  }
  return body;
}

/** The earlier task a continuation names: the caller's own, and where it ran. */
interface Origin {
  channel: RelayChannel;
  upstreamTaskId: string;
}

async function originOf(
  rt: RelayRuntime,
  caller: RelayCaller,
  taskId: string,
  channels: ReadonlyMap<number, RelayChannel>,
): Promise<Origin> {
  const row = await rt.ctx.db
    .selectFrom('tasks')
    .select(['channel_id', 'upstream_task_id', 'task_id'])
    .where('task_id', '=', taskId)
    .where('user_id', '=', caller.userId)
    .where('platform', '=', 'suno')
    .executeTakeFirst();
  // Someone else's task reads exactly as one that does not exist.
  if (!row) throw new RelayError(400, `task ${taskId} does not exist`, 'task_not_exist');
  const channel = channels.get(Number(row.channel_id));
  if (!channel || channel.status !== CHANNEL_STATUS.enabled || taskPlatformOf(channel.type) !== 'suno') {
    throw new RelayError(
      503,
      `the channel that ran task ${taskId} is no longer available, so the task cannot be continued`,
      'task_channel_unavailable',
    );
  }
  // Rows imported from new-api keep the upstream's id as their own.
  return { channel, upstreamTaskId: row.upstream_task_id || row.task_id };
}

/** The channel for a new task: the one an administrator's key pins, or one picked by priority and weight. */
function channelFor(caller: RelayCaller, model: string, index: ChannelIndex): RelayChannel {
  if (caller.pinnedChannelId !== undefined) {
    const pinned = index.byId.get(caller.pinnedChannelId);
    if (!pinned)
      throw new RelayError(403, `channel ${caller.pinnedChannelId} does not exist`, 'channel_not_found');
    if (pinned.status !== CHANNEL_STATUS.enabled)
      throw new RelayError(403, `channel ${pinned.id} is disabled`, 'channel_disabled');
    if (taskPlatformOf(pinned.type) !== 'suno') {
      throw new RelayError(400, `channel ${pinned.id} is not a Suno API channel`, 'channel_type_mismatch');
    }
    return pinned;
  }
  const picked = pickChannel(index, { group: caller.group, model, mode: 'suno', exclude: new Set() });
  if (picked) return picked;
  if (!index.listed(caller.group, model)) {
    throw new RelayError(404, `model ${model} is not available in group ${caller.group}`, 'model_not_found');
  }
  throw new RelayError(
    503,
    `no Suno channel is available for model ${model} in group ${caller.group}`,
    'model_not_available',
  );
}

/** Runs a submit; returns Sluice's id of the accepted task, or throws the refusal. */
export async function submitSunoTask(
  rt: RelayRuntime,
  caller: RelayCaller,
  action: SunoAction,
  raw: unknown,
): Promise<string> {
  const body = checkSubmit(action, raw);
  const model = SUNO_MODELS[action];
  checkModelAllowed(caller, model);
  const index = rt.channels.ready() ?? (await rt.channels.index());
  const origin = filled(body.task_id) ? await originOf(rt, caller, body.task_id, index.byId) : undefined;
  const channel = origin?.channel ?? channelFor(caller, model, index);
  const upstreamBody: Record<string, unknown> = { ...body };
  if (origin) upstreamBody.task_id = origin.upstreamTaskId;
  // The default model version of Suno API servers, said explicitly as new-api does.
  if (action === 'MUSIC' && !filled(body.mv)) upstreamBody.mv = 'chirp-v3-0';

  const held = await holdTaskQuota(rt, caller, model);
  let outcome: Awaited<ReturnType<typeof submitToSuno>>;
  try {
    outcome = await submitToSuno(rt, channel, action, upstreamBody);
  } catch (error) {
    releaseTaskHold(rt, held);
    throw error;
  }
  if (outcome.kind === 'refused') {
    releaseTaskHold(rt, held);
    throw new RelayError(outcome.status, outcome.message, outcome.code);
  }

  const taskId = randomUUID();
  const now = rt.ctx.clock.now();
  await chargeAcceptedTask(rt, caller, held, {
    channelId: channel.id,
    taskId,
    insert: async (trx) => {
      await trx
        .insertInto('tasks')
        .values({
          created_at: now,
          updated_at: now,
          task_id: taskId,
          platform: 'suno',
          user_id: caller.userId,
          channel_id: channel.id,
          quota: held.quota,
          action,
          status: 'SUBMITTED',
          fail_reason: '',
          submit_time: now,
          start_time: 0,
          finish_time: 0,
          progress: '0%',
          properties: propertiesOf(body),
          data: '',
          upstream_task_id: outcome.upstreamTaskId,
          token_id: caller.token?.id ?? 0,
        })
        .execute();
    },
  });
  return taskId;
}
