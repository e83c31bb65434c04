// The `other` JSON of a log row (what the relay records about a call: timing, prices, channels
// tried; the facts of top-up and admin rows). It comes from the server as text; a field of an
// unexpected type is dropped rather than hiding the whole row's details.
import { z } from 'zod';

const num = z.number().finite().optional().catch(undefined);
const text = z.string().optional().catch(undefined);
const flag = z.boolean().optional().catch(undefined);

const logOtherSchema = z.object({
  /** Milliseconds to the first event of a stream (or to the whole answer). */
  frt: num,
  model_ratio: num,
  /** US dollars per call; -1 (or absent) when billed per token. */
  model_price: num,
  completion_ratio: num,
  group_ratio: num,
  cache_ratio: num,
  cache_tokens: num,
  cache_creation_ratio: num,
  cache_creation_tokens: num,
  audio_ratio: num,
  audio_completion_ratio: num,
  audio_input: num,
  audio_output: num,
  text_input: num,
  text_output: num,
  ws: flag,
  upstream_model_name: text,
  /** A chat call's dialects: the client's (openai, responses, anthropic, gemini) and the upstream's. */
  request_format: text,
  upstream_format: text,
  /** A stream that ended early: 'client' (the client left) or 'upstream' (it broke off). */
  stream_interrupted: z.enum(['client', 'upstream', 'quota']).optional().catch(undefined),
  stream_error: text,
  /** Error rows: the status the client was answered with. */
  status_code: num,
  /** Top-up and admin rows: which event (LOG_EVENT) and its facts. */
  event: text,
  quota: num,
  redemption_id: num,
  redemption_name: text,
  money: text,
  payment_method: text,
  trade_no: text,
  quota_from: num,
  quota_to: num,
  quota_delta: num,
  /** Present for admins only. */
  admin_info: z
    .object({
      use_channel: z
        .array(z.union([z.string(), z.number()]))
        .optional()
        .catch(undefined),
      admin_id: num,
    })
    .optional()
    .catch(undefined),
});

export type LogOther = z.output<typeof logOtherSchema>;

/** The parsed details; empty when the text is blank or not a JSON object. */
export function parseLogOther(raw: string): LogOther {
  if (raw.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return {};
  }
  const parsed = logOtherSchema.safeParse(value);
  return parsed.success ? parsed.data : {};
}

const parsedRows = new WeakMap<object, LogOther>();

/** The row's details, parsed once per row object (columns and the expanded row all read them). */
export function otherOf(row: { other: string }): LogOther {
  let parsed = parsedRows.get(row);
  if (!parsed) {
    parsed = parseLogOther(row.other);
    parsedRows.set(row, parsed);
  }
  return parsed;
}
