// Small pieces every list route of the business API shares: route paths with and without the
// trailing slash the spec writes, LIKE patterns that treat user input literally, and paging.
import { sql } from 'kysely';
import type { RawBuilder, SqlBool } from 'kysely';
import { z } from 'zod';
import { idSchema } from '@sluice/shared';
import type { Page } from '@sluice/shared';

/** '/api/log/' → ['/api/log/', '/api/log']: the spec writes some paths with a trailing slash. */
export const withAndWithoutSlash = (path: string): string[] =>
  path.endsWith('/') && path.length > 1 ? [path, path.slice(0, -1)] : [path];

/**
 * `column LIKE '%text%'` with `%` and `_` in the text matched literally. '!' is the escape character
 * because a backslash is spelt differently in MySQL string literals than in the other dialects.
 */
export function likeContains(column: string, text: string): RawBuilder<SqlBool> {
  const escaped = text.replace(/[!%_]/g, (c) => `!${c}`);
  return sql<SqlBool>`${sql.ref(column)} LIKE ${`%${escaped}%`} ESCAPE '!'`;
}

export const pageOf = <T>(items: T[], page: number, pageSize: number, total: number): Page<T> => ({
  items,
  page,
  page_size: pageSize,
  total,
});

export interface ListPaging {
  /** The page as the answer names it. */
  page: number;
  pageSize: number;
  offset: number;
  /** The client sent page_size: answer the page object. */
  paged: boolean;
}

/**
 * Paging of the lists whose clients come in two generations. Without `page_size`: the spec's 0-based
 * `p` and a plain array of `plainSize` rows. With it: new-api's paged style since 2025 — `p` counts
 * from 1 (anything below reads as the first page) and the answer is {items, total, page, page_size}.
 */
export function listPaging(q: { p: number; page_size?: number | undefined }, plainSize: number): ListPaging {
  if (q.page_size === undefined) {
    return { page: q.p, pageSize: plainSize, offset: q.p * plainSize, paged: false };
  }
  const page = Math.max(1, q.p);
  return { page, pageSize: q.page_size, offset: (page - 1) * q.page_size, paged: true };
}

/**
 * A list answer for the lists whose clients come in two generations: new-api's page object
 * ({items, total, page, page_size}) when the client sent `page_size`, else the plain array older
 * clients read. `count` runs (beside the rows) only for the page object.
 */
export async function listAnswer<T>(
  paging: ListPaging,
  rows: Promise<T[]>,
  count: () => Promise<number>,
): Promise<T[] | Page<T>> {
  if (!paging.paged) return rows;
  const [items, total] = await Promise.all([rows, count()]);
  return pageOf(items, paging.page, paging.pageSize, total);
}

/** The `:id` route parameter. */
export const idParam = z.object({ id: idSchema('the id must be a number') });

/** `?status_only=true` on PUT: only the status changes (the spec's enable/disable calls). */
export function isStatusOnly(query: unknown): boolean {
  const value = (query as { status_only?: unknown } | undefined)?.status_only;
  return typeof value === 'string' && value !== '' && value !== 'false' && value !== '0';
}
