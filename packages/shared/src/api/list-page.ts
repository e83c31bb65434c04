// How every list reads the numbers of its query: paging and numeric filters, as new-api's handlers
// read them (Go's strconv.Atoi / ParseInt with the error dropped). A value that is not a whole
// decimal number ("NaN", "", "abc", "0x1", "1e3", "2.5") is absent, never refused: the classic
// console sends `start_timestamp=NaN` when a date is cleared, and such a filter is simply not applied.
// A `p` that is not a page number reads as the first page, a page size that is not one as the default.
// Users, tokens and redemption codes without `page_size` page 0-based (spec part 1 §7 and part 2 §7)
// and answer a plain array; with it, new-api's paged style since 2025: 1-based, answered as
// {items, total, page, page_size} (the server's listPaging). Logs are always 1-based and paged.
import { z } from 'zod';

export const DEFAULT_PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 100;

/** Page numbers above this read as the first page: the row offset must stay a safe integer. */
export const LIST_LAST_PAGE = 1_000_000_000;

const WHOLE_DECIMAL = /^[+-]?[0-9]+$/;

/**
 * An optional whole number that is never refused: what does not parse is absent. Clamped so that no
 * database is handed a number its 64-bit columns cannot compare (such a filter matches nothing).
 */
export const lenientQueryInt = () =>
  z
    .unknown()
    .optional()
    .transform((value): number | undefined => {
      const text = typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '';
      if (!WHOLE_DECIMAL.test(text)) return undefined;
      const n = Math.min(Number.MAX_SAFE_INTEGER, Math.max(-Number.MAX_SAFE_INTEGER, Number(text)));
      // "-0" is 0.
      return n === 0 ? 0 : n;
    });

/** A time bound; 0 (like anything that does not parse) is no bound, as in new-api. */
export const lenientTimeBound = () => lenientQueryInt().transform((n) => (n === 0 ? undefined : n));

/** `p` counted from `first`: anything but a page number from `first` to LIST_LAST_PAGE is `first`. */
const pageNumberFrom = (first: 0 | 1) =>
  lenientQueryInt().transform((n) => (n === undefined || n < first || n > LIST_LAST_PAGE ? first : n));

/** `p` of the lists that count pages from 0 (or, with `page_size`, from 1: see listPaging). */
export const listPageNumber = pageNumberFrom(0);

/** `p` of the lists that count pages from 1 (logs); 0 reads as the first page too. */
export const listPageNumberFrom1 = pageNumberFrom(1);

/** A page size: at least 1 (anything else reads as the default), at most MAX_PAGE_SIZE. */
export const listPageSize = lenientQueryInt().transform((n) =>
  n === undefined || n < 1 ? DEFAULT_PAGE_SIZE : Math.min(n, MAX_PAGE_SIZE),
);

/** `page_size`: absent means "answer a plain array". */
export const listPagedSize = listPageSize.optional();
