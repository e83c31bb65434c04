// Feature sections' texts. They load with the first page that needs a signed-in user (the router
// awaits them), so the sign-in pages every visitor opens first do not carry them. Adding a feature's
// texts is one line here: its features/<domain>/i18n.ts exports <name>En and <name>ZhCN.
export const SECTIONS = {
  users: () => import('../features/users/i18n').then((m) => ({ en: m.usersEn, zhCN: m.usersZhCN })),
  siteSettings: () =>
    import('../features/settings/site/i18n').then((m) => ({
      en: m.siteSettingsEn,
      zhCN: m.siteSettingsZhCN,
    })),
  tokens: () => import('../features/tokens/i18n').then((m) => ({ en: m.tokensEn, zhCN: m.tokensZhCN })),
  redemptions: () =>
    import('../features/redemptions/i18n').then((m) => ({ en: m.redemptionsEn, zhCN: m.redemptionsZhCN })),
  wallet: () => import('../features/wallet/i18n').then((m) => ({ en: m.walletEn, zhCN: m.walletZhCN })),
  pricing: () => import('../features/pricing/i18n').then((m) => ({ en: m.pricingEn, zhCN: m.pricingZhCN })),
  playground: () =>
    import('../features/playground/i18n').then((m) => ({ en: m.playgroundEn, zhCN: m.playgroundZhCN })),
  chat: () => import('../features/chat/i18n').then((m) => ({ en: m.chatEn, zhCN: m.chatZhCN })),
  logs: () => import('../features/logs/i18n').then((m) => ({ en: m.logsEn, zhCN: m.logsZhCN })),
  dashboard: () =>
    import('../features/dashboard/i18n').then((m) => ({ en: m.dashboardEn, zhCN: m.dashboardZhCN })),
  drawing: () => import('../features/drawing/i18n').then((m) => ({ en: m.drawingEn, zhCN: m.drawingZhCN })),
  tasks: () => import('../features/tasks/i18n').then((m) => ({ en: m.tasksEn, zhCN: m.tasksZhCN })),
  channels: () =>
    import('../features/channels/i18n').then((m) => ({ en: m.channelsEn, zhCN: m.channelsZhCN })),
};

/** The sections' English texts by name: part of the typed translation keys. */
export type SectionTexts = {
  [K in keyof typeof SECTIONS]: Awaited<ReturnType<(typeof SECTIONS)[K]>>['en'];
};
