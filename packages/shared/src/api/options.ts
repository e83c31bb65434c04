// Payloads of /api/option/* and /api/group/. Option values travel as strings (the spec's wire form);
// the console may send a switch as a boolean or a number field as a number, and both become strings.
import { z } from 'zod';

export const optionValueSchema = z
  .union([z.string(), z.number().finite(), z.boolean()], {
    error: 'value must be a string, a number or a boolean',
  })
  .transform((value) => String(value));

/** PUT /api/option/ */
export const updateOptionSchema = z.object({
  key: z.string({ error: 'key is required' }).min(1, { error: 'key is required' }),
  value: optionValueSchema,
});
export type UpdateOptionInput = z.input<typeof updateOptionSchema>;

/** One entry of GET /api/option/ (secret keys are never listed). */
export const optionEntrySchema = z.object({ key: z.string(), value: z.string() });
export type OptionEntry = z.infer<typeof optionEntrySchema>;

export const optionListSchema = z.array(optionEntrySchema);

/** GET /api/group/: the group names, i.e. the keys of GroupRatio. */
export const groupListSchema = z.array(z.string());
