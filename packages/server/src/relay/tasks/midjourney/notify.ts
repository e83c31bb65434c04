// The client's notifyHook (MjNotifyEnabled): Sluice, not the upstream, posts the task in the proxy's
// shape whenever polling changes its status or progress, so the hook sees Sluice's ids only. Best
// effort: a hook that fails or is slow is not called again for that change.
import type { RelayRuntime } from '../../pipeline/relay-runtime.js';
import { cancellationOf } from '../../pipeline/upstream-client.js';
import type { MjTaskView } from './task-view.js';

const NOTIFY_TIMEOUT_MS = 10_000;
const MAX_HOOK_LENGTH = 2048;

/** A hook Sluice will call: an absolute http(s) URL; undefined for anything else. */
export function validHook(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > MAX_HOOK_LENGTH) return undefined;
  try {
    const url = new URL(value.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString() : undefined;
  } catch {
    return undefined;
  }
}

/** Posts the task to its hook; never throws (a failure is logged). */
export async function notifyHook(rt: RelayRuntime, hook: string, task: MjTaskView): Promise<void> {
  const cancel = cancellationOf(AbortSignal.timeout(NOTIFY_TIMEOUT_MS));
  try {
    const res = await rt.upstream.send(
      {
        url: hook,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(task),
      },
      cancel,
      { headersMs: NOTIFY_TIMEOUT_MS, bodyMs: NOTIFY_TIMEOUT_MS },
    );
    // Read (and dropped) so the connection can be used again; a hook's answer means nothing here.
    await res.body.readAll(64 * 1024).catch(() => undefined);
  } catch (error) {
    rt.logger.warn({ err: error, task: task.id }, 'could not call the notify hook of a drawing task');
  }
}
