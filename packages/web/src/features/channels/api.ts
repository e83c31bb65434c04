// Calls of channel management: the list (through the list kit), the catalogs the drawer needs, and
// the row and toolbar actions, all through lib/api.ts.
import { useQuery } from '@tanstack/react-query';
import type {
  ChannelBalanceSummary,
  ChannelCreateResult,
  ChannelListItem,
  ChannelTestResult,
  ChannelView,
} from '@sluice/shared';
import { groupChannelsByTag, isChannelTagRow } from '@sluice/shared';
import type { Key } from 'react';
import type { ListAnswer, ListFetchArgs } from '../../components/data-table';
import { api, request } from '../../lib/api';
import type { ApiAnswer } from '../../lib/api';
import { STORAGE_KEYS, isRecord, readJson, writeJson } from '../../lib/storage';
import type { ModelCatalog } from './channel-type-table';

export const CHANNEL_LIST_ID = 'channels';

export const tagRowKey = (tag: string): string => `tag:${tag}`;
export const channelRowKey = (row: ChannelListItem): Key =>
  isChannelTagRow(row) ? tagRowKey(row.tag) : row.id;

const isOn = (value: string | undefined) => value === '1';

/**
 * The list pages on the server (bare arrays, 0-based p). In tag mode the server answers the plain
 * channels of a page of tags, folded here into tag rows. The search answers every match at once,
 * so its pages are cut here and the total is known.
 */
export async function fetchChannelPage({
  page,
  pageSize,
  filters,
  signal,
}: ListFetchArgs): Promise<ListAnswer<ChannelListItem>> {
  const modes = { id_sort: isOn(filters.id_sort), tag_mode: isOn(filters.tag_mode) };
  const rows = (channels: ChannelView[]): ChannelListItem[] =>
    modes.tag_mode ? groupChannelsByTag(channels) : channels;
  const keyword = filters.keyword ?? '';
  const model = filters.model ?? '';
  const group = filters.group ?? '';
  if (keyword === '' && model === '' && group === '') {
    const channels = await api.get<ChannelView[]>(
      '/api/channel/',
      { p: page, page_size: pageSize, ...modes },
      { signal },
    );
    return rows(channels);
  }
  const all = rows(
    await api.get<ChannelView[]>('/api/channel/search', { keyword, model, group, ...modes }, { signal }),
  );
  return { items: all.slice(page * pageSize, (page + 1) * pageSize), total: all.length };
}

const isCatalog = (value: unknown): value is ModelCatalog =>
  isRecord(value) && Object.values(value).every((v) => Array.isArray(v));

/** GET /api/models: type → known models, kept under `channel_models` so the drawer has it at once. */
export const useModelCatalog = () =>
  useQuery({
    queryKey: ['channel-model-catalog'],
    queryFn: async () => {
      const catalog = await api.get<ModelCatalog>('/api/models');
      writeJson(STORAGE_KEYS.channelModels, catalog);
      return catalog;
    },
    initialData: () => readJson(STORAGE_KEYS.channelModels, isCatalog) ?? undefined,
    // The stored copy shows at once; the server's answer replaces it.
    initialDataUpdatedAt: 0,
    staleTime: 5 * 60_000,
  });

export const useChannelGroups = () =>
  useQuery({ queryKey: ['groups'], queryFn: () => api.get<string[]>('/api/group/'), staleTime: 60_000 });

export const useChannelDetail = (id: number | undefined) =>
  useQuery({
    queryKey: ['channel', id],
    enabled: id !== undefined,
    queryFn: () => api.get<ChannelView>(`/api/channel/${id}`),
    staleTime: 0,
  });

/** The body of POST/PUT /api/channel/: the form's fields in their wire shape. */
export interface ChannelPayload {
  id?: number;
  name: string;
  type: number;
  key?: string;
  openai_organization: string;
  max_input_tokens: number;
  base_url: string;
  other: string;
  model_mapping: string;
  status_code_mapping: string;
  /** Comma-separated on the wire. */
  models: string;
  group: string;
  auto_ban: 0 | 1;
  test_model: string;
  priority: number;
  weight: number;
  tag: string;
}

export const createChannels = (payload: ChannelPayload) =>
  api.post<ChannelCreateResult>('/api/channel/', payload);

export const updateChannel = (payload: Partial<ChannelPayload> & { id: number; status?: number }) =>
  api.put<ChannelView>('/api/channel/', payload);

export const deleteChannel = (id: number) => api.delete<null>(`/api/channel/${id}/`);

/** The server copies with the key, which the browser never sees. */
export const copyChannel = (id: number) =>
  api.post<{ id: number }>(`/api/channel/copy/${id}?suffix=_copy&reset_balance=true`, undefined, {
    silent: true,
  });

/**
 * Seconds. A failed test is a refusal carrying the upstream's reason (or why the type cannot be
 * tested); the caller shows it with the channel's name.
 */
export const testChannel = (id: number, model?: string) =>
  api.get<ChannelTestResult>(`/api/channel/test/${id}`, model ? { model } : undefined, { silent: true });

/** Starts a background run; answers the server's sentence saying so. */
export const testAllChannels = async (): Promise<string> =>
  (await request<null>('GET', '/api/channel/test')).message;

export const updateChannelBalance = (id: number) => api.get<number>(`/api/channel/update_balance/${id}/`);

export const updateAllBalances = () => api.get<ChannelBalanceSummary>('/api/channel/update_balance');

export const deleteDisabledChannels = () => api.delete<number>('/api/channel/disabled');

export const deleteChannelBatch = (ids: number[]) => api.post<number>('/api/channel/batch', { ids });

export const fixChannelAbilities = () => api.post<number>('/api/channel/fix');

export const setTagStatus = (tag: string, enabled: boolean) =>
  api.post<number>(`/api/channel/tag/${enabled ? 'enabled' : 'disabled'}`, { tag });

/** PUT /api/channel/tag: only the fields given change (comma strings for lists). */
export interface TagEditPayload {
  tag: string;
  newTag?: string;
  priority?: number;
  weight?: number;
  model_mapping?: string;
  groups?: string;
  models?: string;
}

export const editTag = (payload: TagEditPayload) => api.put<number>('/api/channel/tag', payload);

/** The upstream's models (`data`) and, when the vendor's list needs a word, how to use them (`message`). */
export const fetchStoredChannelModels = (id: number): Promise<ApiAnswer<string[]>> =>
  request<string[]>('GET', `/api/channel/fetch_models/${id}`, { silent: true });

/**
 * A new channel has no stored key yet, so the form sends what it has (its first key; service-account
 * JSON as written, the server reads its first object) and the server asks the upstream in its vendor's
 * way (a browser could not: upstreams do not allow the console's origin).
 */
export const fetchNewChannelModels = (form: {
  type: number;
  base_url: string;
  key: string;
}): Promise<ApiAnswer<string[]>> =>
  request<string[]>('POST', '/api/channel/fetch_models', { body: form, silent: true });
