// The public site status (GET /api/status): flags that shape the console (login methods, sidebar
// items, quota display). The last answer is kept under the `status` storage key so the first paint
// after a reload already has the right name, logo and menu.
import { useQuery } from '@tanstack/react-query';
import type { PublicStatus } from '@sluice/shared';
import { api } from './api';
import { firstPaintStatus } from './first-paint';
import { STORAGE_KEYS, isRecord, readJson, writeJson } from './storage';

export type SiteStatus = PublicStatus;

/** Shown when the site sets no logo of its own. */
export const DEFAULT_LOGO = '/logo.png';

export const DEFAULT_STATUS: SiteStatus = {
  version: '',
  start_time: 0,
  system_name: 'Sluice',
  server_address: '',
  top_up_link: '',
  min_topup: 1,
  price: 7.3,
  enable_online_topup: false,
  display_token_stat: true,
  data_export_default_time: 'hour',
  data_export_interval: 5,
  mj_notify_enabled: false,
  logo: '',
  footer_html: '',
  quota_per_unit: 500000,
  display_in_currency: true,
  enable_drawing: false,
  enable_task: false,
  enable_data_export: false,
  default_collapse_sidebar: false,
  chats: [],
  chat_link: '',
  chat_link2: '',
  password_login: true,
  password_register: true,
  register_enabled: true,
  email_verification: false,
  turnstile_check: false,
  turnstile_site_key: '',
  github_oauth: false,
  github_client_id: '',
  linuxdo_oauth: false,
  linuxdo_client_id: '',
  wechat_login: false,
  wechat_qrcode: '',
  telegram_oauth: false,
  telegram_bot_name: '',
  docs_link: '',
  demo_site_enabled: false,
  self_use_mode_enabled: false,
  usd_exchange_rate: 7.3,
};

/** Fills what an older server or a hand-edited store lacks, so readers never see undefined flags. */
export function normaliseStatus(raw: unknown): SiteStatus {
  if (!isRecord(raw)) return DEFAULT_STATUS;
  const merged = { ...DEFAULT_STATUS, ...raw } as SiteStatus;
  const perUnit = Number(merged.quota_per_unit);
  merged.quota_per_unit = Number.isFinite(perUnit) && perUnit > 0 ? perUnit : DEFAULT_STATUS.quota_per_unit;
  if (!Array.isArray(merged.chats)) merged.chats = [];
  return merged;
}

export function readStoredStatus(): SiteStatus | null {
  const stored = readJson(STORAGE_KEYS.status, isRecord);
  return stored ? normaliseStatus(stored) : null;
}

export const statusQueryKey = ['status'] as const;

async function fetchStatus(): Promise<SiteStatus> {
  const status = normaliseStatus(await api.get<unknown>('/api/status'));
  writeJson(STORAGE_KEYS.status, status);
  return status;
}

let served: { status: SiteStatus; at: number } | null | undefined;
/** The status a first paint from the server came with: current, so it is stored and not fetched again. */
function firstPaintSiteStatus(): { status: SiteStatus; at: number } | null {
  if (served === undefined) {
    const raw = firstPaintStatus();
    served = raw ? { status: normaliseStatus(raw), at: Date.now() } : null;
    if (served) writeJson(STORAGE_KEYS.status, served.status);
  }
  return served;
}

function useStatusQuery() {
  const fromServer = firstPaintSiteStatus();
  return useQuery({
    queryKey: statusQueryKey,
    queryFn: fetchStatus,
    initialData: fromServer?.status ?? readStoredStatus() ?? undefined,
    // The stored copy is shown at once but always refreshed on start; the first paint's is current.
    initialDataUpdatedAt: fromServer?.at ?? 0,
    staleTime: 5 * 60_000,
  });
}

/** The site status: the stored copy at once, then the server's answer. */
export function useStatus(): SiteStatus {
  return useStatusQuery().data ?? DEFAULT_STATUS;
}

/** True once this page view has the server's answer (not only the stored copy). */
export function useStatusLoaded(): boolean {
  return useStatusQuery().dataUpdatedAt > 0;
}
