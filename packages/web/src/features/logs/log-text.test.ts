// The details sentence of every kind of log row, in English and Chinese, worded from the facts the
// server stores in `other`; rows without those facts keep their stored text.
import { LOG_TYPE, formatQuota } from '@sluice/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { i18n, loadSections } from '../../i18n';
import { parseLogOther } from './log-other';
import { logText } from './log-text';

beforeAll(() => loadSections());

const dollars = (quota: number) => formatQuota(quota, { displayInCurrency: true, quotaPerUnit: 500_000 });

function render(language: 'en' | 'zh-CN', type: number, other: object | string, content = 'stored text') {
  const raw = typeof other === 'string' ? other : JSON.stringify(other);
  return logText({ type, content }, parseLogOther(raw), {
    t: i18n.getFixedT(language),
    formatQuota: dollars,
  });
}

const tokenPrices = {
  model_ratio: 0.075,
  model_price: -1,
  completion_ratio: 4,
  group_ratio: 1,
  cache_ratio: 0.5,
};

interface Case {
  name: string;
  type: number;
  other: object;
  content?: string;
  en: string;
  zh: string;
}

const cases: Case[] = [
  {
    name: 'a call billed per token',
    type: LOG_TYPE.consume,
    other: { frt: 300, ...tokenPrices },
    en: 'Model ratio 0.075, completion ratio 4, group ratio 1',
    zh: '模型倍率 0.075，补全倍率 4，分组倍率 1',
  },
  {
    name: 'a call billed per call',
    type: LOG_TYPE.consume,
    other: { model_ratio: 0, model_price: 0.04, completion_ratio: 0, group_ratio: 1.5 },
    en: 'Model price $0.04 per call, group ratio 1.5',
    zh: '模型价格 $0.04/次，分组倍率 1.5',
  },
  {
    name: 'a call with cached tokens whose client left mid-stream',
    type: LOG_TYPE.consume,
    other: { ...tokenPrices, cache_tokens: 800, stream_interrupted: 'client' },
    en: 'Model ratio 0.075, completion ratio 4, group ratio 1; 800 cached tokens at cache ratio 0.5; the client disconnected before the stream ended',
    zh: '模型倍率 0.075，补全倍率 4，分组倍率 1；缓存命中 800 Tokens，缓存倍率 0.5；客户端在流结束前断开了连接',
  },
  {
    name: 'a Claude call that read from and wrote to the prompt cache',
    type: LOG_TYPE.consume,
    other: {
      ...tokenPrices,
      model_ratio: 1.5,
      completion_ratio: 5,
      cache_ratio: 0.1,
      cache_tokens: 6000,
      cache_creation_ratio: 1.25,
      cache_creation_tokens: 2000,
    },
    en: 'Model ratio 1.5, completion ratio 5, group ratio 1; 6000 cached tokens at cache ratio 0.1; 2000 prompt tokens written to the cache at cache-write ratio 1.25',
    zh: '模型倍率 1.5，补全倍率 5，分组倍率 1；缓存命中 6000 Tokens，缓存倍率 0.1；缓存写入 2000 Tokens，缓存写入倍率 1.25',
  },
  {
    name: 'a stream the upstream broke off',
    type: LOG_TYPE.consume,
    other: { ...tokenPrices, stream_interrupted: 'upstream', stream_error: 'connection reset' },
    en: 'Model ratio 0.075, completion ratio 4, group ratio 1; the stream broke off: connection reset',
    zh: '模型倍率 0.075，补全倍率 4，分组倍率 1；流中途中断：connection reset',
  },
  {
    name: 'a stream stopped when the quota ran out',
    type: LOG_TYPE.consume,
    other: { ...tokenPrices, stream_interrupted: 'quota', usage_source: 'local' },
    en: 'Model ratio 0.075, completion ratio 4, group ratio 1; the stream was stopped when the quota left paid for no more output',
    zh: '模型倍率 0.075，补全倍率 4，分组倍率 1；剩余额度不足以支付更多输出，流已被停止',
  },
  {
    name: 'a failed call',
    type: LOG_TYPE.error,
    other: { status_code: 502, admin_info: { use_channel: ['3'] } },
    content: 'upstream said no',
    en: 'Failed with status 502: upstream said no',
    zh: '请求失败，状态码 502：upstream said no',
  },
  {
    name: 'a failed call without a message',
    type: LOG_TYPE.error,
    other: { status_code: 429 },
    content: '',
    en: 'Failed with status 429',
    zh: '请求失败，状态码 429',
  },
  {
    name: 'a redeemed code',
    type: LOG_TYPE.topup,
    other: { event: 'redeem', redemption_id: 12, redemption_name: 'welcome', quota: 250_000 },
    en: 'Redeemed code "welcome" (ID 12) for $0.50',
    zh: '使用兑换码“welcome”（ID 12）充值 $0.50',
  },
  {
    name: 'an online top-up by Alipay',
    type: LOG_TYPE.topup,
    other: {
      event: 'online_topup',
      quota: 1_500_000,
      money: '21.90',
      payment_method: 'alipay',
      trade_no: 'T1',
    },
    en: 'Online top-up of $3.00, paid 21.90 with Alipay (order T1)',
    zh: '在线充值 $3.00，使用支付宝支付 21.90（订单号 T1）',
  },
  {
    name: 'an online top-up by WeChat Pay',
    type: LOG_TYPE.topup,
    other: { event: 'online_topup', quota: 500_000, money: '7.30', payment_method: 'wxpay', trade_no: 'T2' },
    en: 'Online top-up of $1.00, paid 7.30 with WeChat Pay (order T2)',
    zh: '在线充值 $1.00，使用微信支付支付 7.30（订单号 T2）',
  },
  {
    name: 'an online top-up by a method the console does not know',
    type: LOG_TYPE.topup,
    other: { event: 'online_topup', quota: 500_000, money: '1.00', payment_method: 'qqpay', trade_no: 'T3' },
    en: 'Online top-up of $1.00, paid 1.00 with qqpay (order T3)',
    zh: '在线充值 $1.00，使用qqpay支付 1.00（订单号 T3）',
  },
  {
    name: 'a quota raised by an administrator, as the user reads it',
    type: LOG_TYPE.manage,
    other: { event: 'admin_set_quota', quota_from: 500_000, quota_to: 1_500_000 },
    en: 'An administrator changed the quota from $1.00 to $3.00 (+$2.00)',
    zh: '管理员将额度从 $1.00 修改为 $3.00（+$2.00）',
  },
  {
    name: 'a quota lowered by an administrator, as an admin reads it',
    type: LOG_TYPE.manage,
    other: {
      event: 'admin_set_quota',
      quota_from: 1_500_000,
      quota_to: 500_000,
      admin_info: { admin_id: 1 },
    },
    en: 'Administrator (ID 1) changed the quota from $3.00 to $1.00 (-$2.00)',
    zh: '管理员（ID 1）将额度从 $3.00 修改为 $1.00（-$2.00）',
  },
  {
    name: 'an amount added by an administrator, as the user reads it',
    type: LOG_TYPE.manage,
    other: { event: 'admin_add_quota', quota_delta: 1_000_000 },
    en: 'An administrator added $2.00 to the quota',
    zh: '管理员为额度增加了 $2.00',
  },
  {
    name: 'an amount subtracted by an administrator, as an admin reads it',
    type: LOG_TYPE.manage,
    other: { event: 'admin_add_quota', quota_delta: -250_000, admin_info: { admin_id: 1 } },
    en: 'Administrator (ID 1) subtracted $0.50 from the quota',
    zh: '管理员（ID 1）从额度中扣减了 $0.50',
  },
];

describe.each(cases)('the details of $name', (c) => {
  it('read in English', () => {
    expect(render('en', c.type, c.other, c.content)).toBe(c.en);
  });
  it('read in Chinese', () => {
    expect(render('zh-CN', c.type, c.other, c.content)).toBe(c.zh);
  });
});

describe('rows without the facts', () => {
  const stored: Array<[string, number, object | string]> = [
    ['an older consumption row without prices', LOG_TYPE.consume, { frt: 100 }],
    ['an older top-up row', LOG_TYPE.topup, ''],
    ['an older admin row', LOG_TYPE.manage, ''],
    ['an error row without a status', LOG_TYPE.error, {}],
    ['a system row', LOG_TYPE.system, ''],
    ['a redemption row missing its code', LOG_TYPE.topup, { event: 'redeem', quota: 1 }],
    ['an event this console does not know', LOG_TYPE.topup, { event: 'gift', quota: 1 }],
    ['unreadable details', LOG_TYPE.consume, 'not json'],
  ];
  it.each(stored)('show the stored text for %s, in either language', (_name, type, other) => {
    expect(render('en', type, other, 'as it was written')).toBe('as it was written');
    expect(render('zh-CN', type, other, 'as it was written')).toBe('as it was written');
  });
});
