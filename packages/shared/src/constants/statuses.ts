// Status numbers of the business entities (spec part 2 §4).
export const CHANNEL_STATUS = { enabled: 1, manuallyDisabled: 2, autoDisabled: 3 } as const;
export const TOKEN_STATUS = { enabled: 1, disabled: 2, expired: 3, exhausted: 4 } as const;
export const REDEMPTION_STATUS = { unused: 1, disabled: 2, used: 3 } as const;
export const LOG_TYPE = { all: 0, topup: 1, consume: 2, manage: 3, system: 4, error: 5 } as const;
export type LogType = (typeof LOG_TYPE)[keyof typeof LOG_TYPE];
export const TOPUP_STATUS = { pending: 'pending', success: 'success', failed: 'failed' } as const;
