// State of one list page: filters and page in the URL, page size remembered per list, one request
// per visited page (the next page is fetched only when the user moves past the last loaded one),
// selection across pages, and in-place row updates after an action. See ./index.ts for usage.
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import type { QueryKey } from '@tanstack/react-query';
import type { Key } from 'react';
import { useCallback, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { pageSizeKey, readString, writeString } from '../../lib/storage';

export const PAGE_SIZE_OPTIONS = [10, 20, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 10;

export type ListFilters = Record<string, string>;

/** What a list endpoint answers: a bare array (no total, paged lazily) or items with the total. */
export type ListAnswer<T> = T[] | { items: T[]; total: number };

export interface ListFetchArgs {
  /** 0-based, as the API's `p`. */
  page: number;
  pageSize: number;
  filters: ListFilters;
  signal: AbortSignal;
}

export interface UseListOptions<T> {
  /** Names the list: its cache key and its remembered page size (`page-size:<id>`). */
  id: string;
  fetchPage: (args: ListFetchArgs) => Promise<ListAnswer<T>>;
  rowKey: (row: T) => Key;
  /** Filter names and their defaults; only these are read from and written to the URL. */
  filters?: ListFilters;
  defaultPageSize?: number;
  /** Keep page and filters in the URL (default). Turn off for a list inside a dialog. */
  urlState?: boolean;
}

interface PageData<T> {
  items: T[];
  total?: number;
}

export interface ListState<T> {
  rows: T[];
  /** First load of this page (nothing to show yet). */
  loading: boolean;
  /** Any request in flight, including a background refresh. */
  fetching: boolean;
  failed: boolean;
  /** 1-based, as the pagination shows it. */
  page: number;
  pageSize: number;
  /** For the pagination: the server's total, or the pages known so far plus one when more may exist. */
  total: number;
  totalKnown: boolean;
  filters: ListFilters;
  search(filters: ListFilters): void;
  setPage(page: number): void;
  setPageSize(size: number): void;
  refresh(): Promise<void>;
  selectedKeys: Key[];
  selectedRows: T[];
  setSelection(keys: Key[], rows: T[]): void;
  clearSelection(): void;
  /** Replaces one row in every cached page (e.g. with the status the server returned). */
  updateRow(key: Key, update: Partial<T> | ((row: T) => T)): void;
  removeRow(key: Key): void;
  rowKey: (row: T) => Key;
  queryKey: QueryKey;
}

function normalise<T>(answer: ListAnswer<T>): PageData<T> {
  return Array.isArray(answer) ? { items: answer } : { items: answer.items ?? [], total: answer.total };
}

function storedPageSize(id: string, fallback: number): number {
  const stored = Number(readString(pageSizeKey(id)));
  return (PAGE_SIZE_OPTIONS as readonly number[]).includes(stored) ? stored : fallback;
}

/**
 * How many pages the pagination offers when the server gives no total: every page seen so far, plus
 * one more while the last one seen was full. A short page marks the end.
 */
export function knownPageCount(loaded: Array<{ page: number; count: number }>, pageSize: number): number {
  let pages = 1;
  let end = Infinity;
  for (const { page, count } of loaded) {
    if (count < pageSize) end = Math.min(end, page + 1);
    else pages = Math.max(pages, page + 2);
    pages = Math.max(pages, page + 1);
  }
  return Math.max(1, Math.min(pages, end));
}

export function useList<T>(options: UseListOptions<T>): ListState<T> {
  const { id, fetchPage, rowKey, urlState = true } = options;
  const defaults = useMemo(() => options.filters ?? {}, [options.filters]);
  const queryClient = useQueryClient();
  const [searchParams, setSearchParams] = useSearchParams();
  const [localState, setLocalState] = useState<{ page: number; filters: ListFilters }>({
    page: 1,
    filters: defaults,
  });
  const [pageSize, setPageSizeState] = useState(() =>
    storedPageSize(id, options.defaultPageSize ?? DEFAULT_PAGE_SIZE),
  );
  const [selected, setSelected] = useState<Map<Key, T>>(() => new Map());

  // --- page and filters, from the URL or local state ---
  const urlFilters = useMemo(() => {
    const out: ListFilters = {};
    for (const [name, fallback] of Object.entries(defaults)) out[name] = searchParams.get(name) ?? fallback;
    return out;
  }, [defaults, searchParams]);
  const filters = urlState ? urlFilters : localState.filters;
  const urlPage = Math.max(1, Math.floor(Number(searchParams.get('page')) || 1));
  const page = urlState ? urlPage : localState.page;

  const navigateTo = useCallback(
    (nextPage: number, nextFilters: ListFilters) => {
      if (!urlState) {
        setLocalState({ page: nextPage, filters: nextFilters });
        return;
      }
      setSearchParams(
        (prev) => {
          const params = new URLSearchParams(prev);
          for (const [name, value] of Object.entries(nextFilters)) {
            if (value === '' || value === defaults[name]) params.delete(name);
            else params.set(name, value);
          }
          if (nextPage <= 1) params.delete('page');
          else params.set('page', String(nextPage));
          return params;
        },
        { replace: false },
      );
    },
    [urlState, setSearchParams, defaults],
  );

  // --- data: one cached query per visited page ---
  const baseKey = useMemo(() => ['list', id, filters, pageSize] as const, [id, filters, pageSize]);
  const queryKey = useMemo(() => [...baseKey, page - 1], [baseKey, page]);
  const query = useQuery({
    queryKey,
    queryFn: async ({ signal }) => normalise(await fetchPage({ page: page - 1, pageSize, filters, signal })),
    placeholderData: keepPreviousData,
    // Going back to a page already seen shows it without asking again; refresh() asks again.
    staleTime: 60_000,
  });

  const current = query.data;
  const rows = current?.items ?? [];
  const serverTotal = current?.total;
  let total: number;
  if (serverTotal !== undefined) {
    total = serverTotal;
  } else {
    // Derived from the cache on each render; the current page's query re-renders us when it lands.
    const loaded = queryClient
      .getQueriesData<PageData<T>>({ queryKey: baseKey })
      .flatMap(([key, data]) =>
        data ? [{ page: Number(key[key.length - 1]), count: data.items.length }] : [],
      );
    total = knownPageCount(loaded, pageSize) * pageSize;
  }

  // --- actions ---
  const search = useCallback(
    (next: ListFilters) => {
      setSelected(new Map());
      navigateTo(1, { ...defaults, ...next });
    },
    [navigateTo, defaults],
  );
  const setPage = useCallback((next: number) => navigateTo(next, filters), [navigateTo, filters]);
  const setPageSize = useCallback(
    (size: number) => {
      writeString(pageSizeKey(id), String(size));
      setPageSizeState(size);
      setSelected(new Map());
      navigateTo(1, filters);
    },
    [id, navigateTo, filters],
  );
  const refresh = useCallback(
    () => queryClient.invalidateQueries({ queryKey: ['list', id] }),
    [queryClient, id],
  );

  const mapPages = useCallback(
    (change: (items: T[]) => T[]) =>
      queryClient.setQueriesData<PageData<T>>({ queryKey: ['list', id] }, (old) =>
        old ? { ...old, items: change(old.items) } : old,
      ),
    [queryClient, id],
  );
  const updateRow = useCallback(
    (key: Key, update: Partial<T> | ((row: T) => T)) =>
      mapPages((items) =>
        items.map((row) => {
          if (rowKey(row) !== key) return row;
          return typeof update === 'function' ? update(row) : { ...row, ...update };
        }),
      ),
    [mapPages, rowKey],
  );
  const removeRow = useCallback(
    (key: Key) => mapPages((items) => items.filter((row) => rowKey(row) !== key)),
    [mapPages, rowKey],
  );

  const setSelection = useCallback(
    (keys: Key[], pageRows: T[]) =>
      setSelected((prev) => {
        // antd hands over only the rows it can see; rows chosen on other pages are kept from before.
        const next = new Map<Key, T>();
        const byKey = new Map(pageRows.filter(Boolean).map((row) => [rowKey(row), row]));
        for (const key of keys) {
          const row = byKey.get(key) ?? prev.get(key);
          if (row) next.set(key, row);
        }
        return next;
      }),
    [rowKey],
  );

  return {
    rows,
    loading: query.isPending,
    fetching: query.isFetching,
    failed: query.isError,
    page,
    pageSize,
    total,
    totalKnown: serverTotal !== undefined,
    filters,
    search,
    setPage,
    setPageSize,
    refresh,
    selectedKeys: [...selected.keys()],
    selectedRows: [...selected.values()],
    setSelection,
    clearSelection: () => setSelected(new Map()),
    updateRow,
    removeRow,
    rowKey,
    queryKey,
  };
}
