// Texts of the data dashboard, hooked into i18n/sections.ts under `dashboard`.

type Strings<T> = { [K in keyof T]: T[K] extends string ? string : Strings<T[K]> };

export const dashboardEn = {
  title: 'Data dashboard',
  disabled: 'The data dashboard is not enabled. An administrator can turn on data export in the settings.',
  granularity: 'Time granularity',
  by: { hour: 'By hour', day: 'By day', week: 'By week' },
  totalQuota: 'Quota used',
  totalCalls: 'Calls',
  totalTokens: 'Tokens',
  quotaOverTime: 'Quota used over time, by model',
  callsByModel: 'Calls by model',
  byModel: 'Usage by model',
  otherModels: 'Other models',
  noData: 'No usage in this time range',
  column: { model: 'Model', calls: 'Calls', tokens: 'Tokens', quota: 'Quota' },
};

export const dashboardZhCN: Strings<typeof dashboardEn> = {
  title: '数据看板',
  disabled: '数据看板未启用，管理员可在设置中开启数据导出。',
  granularity: '时间粒度',
  by: { hour: '按小时', day: '按天', week: '按周' },
  totalQuota: '消耗额度',
  totalCalls: '调用次数',
  totalTokens: 'Tokens',
  quotaOverTime: '按模型的额度消耗趋势',
  callsByModel: '各模型调用次数',
  byModel: '各模型用量',
  otherModels: '其他模型',
  noData: '该时间范围内没有用量',
  column: { model: '模型', calls: '调用次数', tokens: 'Tokens', quota: '额度' },
};
