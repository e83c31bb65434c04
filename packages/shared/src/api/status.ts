// GET /api/status: the public site status the console keeps in local storage under `status`
// (spec part 1 §3 "Public status object" and part 2 §3 "Platform status kept locally").
import { z } from 'zod';

export const publicStatusSchema = z.object({
  version: z.string(),
  /** Unix seconds when this server process started. */
  start_time: z.number().int(),
  system_name: z.string(),
  /** Empty means the console's own default logo (/logo.png). */
  logo: z.string(),
  footer_html: z.string(),
  server_address: z.string(),
  top_up_link: z.string(),
  min_topup: z.number(),
  /** Currency units per US dollar for online top-up. */
  price: z.number(),
  enable_online_topup: z.boolean(),
  quota_per_unit: z.number(),
  display_in_currency: z.boolean(),
  display_token_stat: z.boolean(),
  enable_drawing: z.boolean(),
  enable_task: z.boolean(),
  enable_data_export: z.boolean(),
  data_export_default_time: z.enum(['hour', 'day', 'week']),
  /** Minutes between refreshes of the data dashboard. */
  data_export_interval: z.number().int(),
  default_collapse_sidebar: z.boolean(),
  mj_notify_enabled: z.boolean(),
  chats: z.array(z.record(z.string(), z.string())),
  chat_link: z.string(),
  chat_link2: z.string(),
  password_login: z.boolean(),
  password_register: z.boolean(),
  register_enabled: z.boolean(),
  email_verification: z.boolean(),
  turnstile_check: z.boolean(),
  turnstile_site_key: z.string(),
  github_oauth: z.boolean(),
  github_client_id: z.string(),
  linuxdo_oauth: z.boolean(),
  linuxdo_client_id: z.string(),
  wechat_login: z.boolean(),
  wechat_qrcode: z.string(),
  telegram_oauth: z.boolean(),
  telegram_bot_name: z.string(),
  /** The operator's documentation address; empty when none. */
  docs_link: z.string(),
  demo_site_enabled: z.boolean(),
  /** Unpriced models are served at no charge. */
  self_use_mode_enabled: z.boolean(),
  /** Yuan per US dollar, for consoles that show prices in yuan. */
  usd_exchange_rate: z.number(),
});
export type PublicStatus = z.infer<typeof publicStatusSchema>;
