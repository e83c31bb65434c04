// Sluice's ids of drawing tasks and the upstream's: clients only ever see Sluice's (`mj_id`, a fresh
// 19-digit number, as the proxy's ids are numeric strings); the upstream's stays in
// `upstream_task_id`, and wherever it appears in what is passed on it is replaced by Sluice's.
import { randomInt } from 'node:crypto';

/** Milliseconds (13 digits until the year 2286) and 6 random digits: unique, and ordered by time. */
export function newMjId(nowMs = Date.now()): string {
  return `${Math.floor(nowMs)}${String(randomInt(1_000_000)).padStart(6, '0')}`;
}

/** The id the upstream knows a row by: its own, or for rows imported from new-api their `mj_id`. */
export const upstreamIdOf = (row: { mj_id: string; upstream_task_id: string }): string =>
  row.upstream_task_id || row.mj_id;

/** Upstream ids → Sluice's, for the rewriting below. */
export type IdMap = ReadonlyMap<string, string>;

/** Digit runs long enough to be a task id (the proxy's are 16 to 19 digits). */
const ID_LIKE = /\d{10,}/g;

/** Text with every upstream id it names replaced by Sluice's (a description "/up 1733… U1"). */
export function replaceIdsInText(text: string, ids: IdMap): string {
  if (ids.size === 0) return text;
  return text.replace(ID_LIKE, (run) => ids.get(run) ?? run);
}

/** The id-like digit runs of a text, for looking up which upstream ids it names. */
export const idCandidates = (text: string): string[] => text.match(ID_LIKE) ?? [];

/**
 * A value of an answer (a submit's `result`, its `properties`) with every string that is an upstream
 * id replaced by Sluice's; URLs and other strings are left as they are.
 */
export function replaceIdValues(value: unknown, ids: IdMap): unknown {
  if (typeof value === 'string') return ids.get(value) ?? value;
  if (typeof value === 'number' && Number.isSafeInteger(value)) {
    const replaced = ids.get(String(value));
    return replaced ?? value;
  }
  if (Array.isArray(value)) return value.map((item) => replaceIdValues(item, ids));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, replaceIdValues(v, ids)]));
  }
  return value;
}
