// GET /api/pricing. The answer carries group_ratio and usable_group beside `data` in the envelope,
// which lib/api.ts does not hand back, so this one call reads the envelope itself (same headers,
// same error sentences).
import { useQuery } from '@tanstack/react-query';
import type { QueryClient } from '@tanstack/react-query';
import type { PricingEntry } from '@sluice/shared';
import { ApiError, translateServerMessage } from '../../lib/api';
import { getUser } from '../../lib/session';
import { isRecord } from '../../lib/storage';

export interface PricingAnswer {
  models: PricingEntry[];
  /** Group → ratio, for every group that has one. */
  groupRatio: Record<string, number>;
  /** Group → description, for the groups the caller may use (visitors: the default group's view). */
  usableGroups: Record<string, string>;
}

const numberRecord = (value: unknown): Record<string, number> =>
  isRecord(value)
    ? Object.fromEntries(Object.entries(value).filter((e): e is [string, number] => typeof e[1] === 'number'))
    : {};

const stringRecord = (value: unknown): Record<string, string> =>
  isRecord(value)
    ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, typeof v === 'string' ? v : String(v)]))
    : {};

function toEntry(raw: unknown): PricingEntry | null {
  if (!isRecord(raw) || typeof raw.model_name !== 'string') return null;
  const num = (v: unknown, fallback: number) => (typeof v === 'number' && Number.isFinite(v) ? v : fallback);
  return {
    model_name: raw.model_name,
    quota_type: raw.quota_type === 1 ? 1 : 0,
    model_ratio: num(raw.model_ratio, 0),
    model_price: num(raw.model_price, 0),
    completion_ratio: num(raw.completion_ratio, 1),
    enable_groups: Array.isArray(raw.enable_groups)
      ? raw.enable_groups.filter((g): g is string => typeof g === 'string')
      : [],
  };
}

/** Reads the answer defensively: an older server may leave fields out. */
export function parsePricingAnswer(body: Record<string, unknown>): PricingAnswer {
  const rows = Array.isArray(body.data) ? body.data : [];
  return {
    models: rows.map(toEntry).filter((e): e is PricingEntry => e !== null),
    groupRatio: numberRecord(body.group_ratio),
    usableGroups: stringRecord(body.usable_group),
  };
}

export async function fetchPricing(signal?: AbortSignal): Promise<PricingAnswer> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  // Signed in, the server prices for the user's group; the header is what lets it see the session.
  const user = getUser();
  if (user) headers['New-Api-User'] = String(user.id);
  const response = await fetch('/api/pricing', { headers, credentials: 'same-origin', signal });
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok || !isRecord(body) || body.success !== true) {
    const message =
      isRecord(body) && typeof body.message === 'string' && body.message !== ''
        ? body.message
        : response.statusText || `HTTP ${response.status}`;
    throw new ApiError(response.status, translateServerMessage(message));
  }
  return parsePricingAnswer(body);
}

/** Per signed-in user (0 for visitors): the answer depends on the caller's group. */
const pricingQuery = (userId: number) => ({
  queryKey: ['pricing', userId] as const,
  queryFn: ({ signal }: { signal: AbortSignal }) => fetchPricing(signal),
  staleTime: 60_000,
});

export const usePricing = (userId: number) => useQuery(pricingQuery(userId));

export const ensurePricing = (client: QueryClient, userId: number) =>
  client.ensureQueryData(pricingQuery(userId));
