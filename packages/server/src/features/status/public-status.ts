// What GET /api/status tells anyone: the site's name, look, login methods and the flags that shape
// the console. Also what the console's first paints are rendered with (http/first-paints.ts).
import type { PublicStatus } from '@sluice/shared';
import type { AppContext } from '../../app-context.js';

const VERSION = '0.1.0';

export function publicStatus(ctx: Pick<AppContext, 'options' | 'startedAt'>): PublicStatus {
  const o = ctx.options;
  // Online top-up needs the whole gateway configured; the key itself is never shown.
  const enableOnlineTopup = o.get('PayAddress') !== '' && o.get('EpayId') !== '' && o.get('EpayKey') !== '';
  return {
    version: VERSION,
    start_time: ctx.startedAt,
    system_name: o.get('SystemName'),
    logo: o.get('Logo'),
    footer_html: o.get('Footer'),
    server_address: o.get('ServerAddress'),
    top_up_link: o.get('TopUpLink'),
    min_topup: o.get('MinTopUp'),
    price: o.get('Price'),
    enable_online_topup: enableOnlineTopup,
    quota_per_unit: o.get('QuotaPerUnit'),
    display_in_currency: o.get('DisplayInCurrencyEnabled'),
    display_token_stat: o.get('DisplayTokenStatEnabled'),
    enable_drawing: o.get('DrawingEnabled'),
    enable_task: o.get('TaskEnabled'),
    enable_data_export: o.get('DataExportEnabled'),
    data_export_default_time: o.get('DataExportDefaultTime'),
    data_export_interval: o.get('DataExportInterval'),
    default_collapse_sidebar: o.get('DefaultCollapseSidebar'),
    mj_notify_enabled: o.get('MjNotifyEnabled'),
    chats: o.get('Chats'),
    chat_link: o.get('ChatLink'),
    chat_link2: o.get('ChatLink2'),
    password_login: o.get('PasswordLoginEnabled'),
    password_register: o.get('PasswordRegisterEnabled'),
    register_enabled: o.get('RegisterEnabled'),
    email_verification: o.get('EmailVerificationEnabled'),
    turnstile_check: o.get('TurnstileCheckEnabled'),
    turnstile_site_key: o.get('TurnstileSiteKey'),
    github_oauth: o.get('GitHubOAuthEnabled'),
    github_client_id: o.get('GitHubClientId'),
    linuxdo_oauth: o.get('LinuxDOOAuthEnabled'),
    linuxdo_client_id: o.get('LinuxDOClientId'),
    wechat_login: o.get('WeChatAuthEnabled'),
    wechat_qrcode: o.get('WeChatAccountQRCodeImageURL'),
    telegram_oauth: o.get('TelegramOAuthEnabled'),
    telegram_bot_name: o.get('TelegramBotName'),
    docs_link: o.get('DocsLink'),
    demo_site_enabled: o.get('DemoSiteEnabled'),
    self_use_mode_enabled: o.get('SelfUseModeEnabled'),
    usd_exchange_rate: o.get('USDExchangeRate'),
  };
}
