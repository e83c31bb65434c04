// Small pieces every list route of the business API shares: route paths with and without the
// trailing slash the spec writes, LIKE patterns that treat user input literally, and paging.
import { sql } from 'kysely';
import type { RawBuilder, SqlBool } from 'kysely';
import { z } from 'zod';
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

/** The `:id` route parameter. */
export const idParam = z.object({
  id: z.coerce
    .number({ error: 'the id must be a number' })
    .int()
    .min(1, { error: 'the id must be a number' }),
});

/** `?status_only=true` on PUT: only the status changes (the spec's enable/disable calls). */
export function isStatusOnly(query: unknown): boolean {
  const value = (query as { status_only?: unknown } | undefined)?.status_only;
  return typeof value === 'string' && value !== '' && value !== 'false' && value !== '0';
}
