// The one way every id is read, from a path, a query or a JSON body: a positive decimal integer.
// `Number()` alone would take `0x1`, `1e0`, `1.0`, ` 1` and `+1` for 1, so strings are checked
// digit by digit before they become numbers.
import { z } from 'zod';

const DECIMAL_ID = /^[1-9][0-9]*$/;

/** An id given as a JSON number or as its decimal digits; anything else is refused with `message`. */
export const idSchema = (message: string) =>
  z
    .union([z.number(), z.string().regex(DECIMAL_ID, { error: message })], { error: message })
    .transform(Number)
    .pipe(
      z
        .number()
        .int({ error: message })
        .positive({ error: message })
        .max(Number.MAX_SAFE_INTEGER, { error: message }),
    );
