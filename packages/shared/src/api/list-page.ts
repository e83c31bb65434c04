// Paging of the user, token and redemption-code lists. `p` is never refused: a value that is not a
// page number reads as the first page. Without `page_size` it is 0-based (spec part 1 §7 and part 2
// §7) and the answer a plain array; with it, new-api's paged style since 2025: 1-based, answered as
// {items, total, page, page_size} (the server's listPaging).
import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './logs.js';

/** Page numbers above this read as the first page: the row offset must stay a safe integer. */
export const LIST_LAST_PAGE = 1_000_000_000;

/** `p`: a whole number from 0 (the first page); anything else reads as 0. */
export const listPageNumber = z.coerce.number().int().min(0).max(LIST_LAST_PAGE).catch(0);

/** A page size: at least 1 (anything else reads as the default), at most MAX_PAGE_SIZE. */
export const listPageSize = z.coerce
  .number()
  .int()
  .min(1)
  .catch(DEFAULT_PAGE_SIZE)
  .transform((n) => Math.min(n, MAX_PAGE_SIZE));

/** `page_size`: absent means "answer a plain array". */
export const listPagedSize = listPageSize.optional();
