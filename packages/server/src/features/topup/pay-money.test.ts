import { describe, expect, it } from 'vitest';
import { epaySign, epayVerify } from './epay.js';
import { minTopupAmount, payMoney, sameMoney, topupUnits, unitsToQuota } from './pay-money.js';
import type { TopupSettings } from './pay-money.js';

const settings = (s: Partial<TopupSettings> = {}): TopupSettings => ({
  displayInCurrency: true,
  quotaPerUnit: 500000,
  price: 7.3,
  groupRatio: 1,
  minTopUp: 1,
  ...s,
});

describe('top-up arithmetic', () => {
  it('prices amount × Price × group ratio with 2 decimals', () => {
    expect(payMoney(3, settings())).toBe('21.90');
    expect(payMoney(3, settings({ groupRatio: 0.9 }))).toBe('19.71');
    // A missing or zero group ratio means 1.
    expect(payMoney(2, settings({ groupRatio: undefined }))).toBe('14.60');
    expect(payMoney(2, settings({ groupRatio: 0 }))).toBe('14.60');
  });

  it('rounds the decimal the operator typed, not its binary approximation', () => {
    // 1.005 is 1.00499999999999989… in binary floating point, which toFixed(2) rounds down.
    expect((1.005).toFixed(2)).toBe('1.00');
    expect(payMoney(1, settings({ price: 1.005 }))).toBe('1.01');
    expect(payMoney(3, settings({ price: 0.1, groupRatio: 0.35 }))).toBe('0.11');
  });

  it('reads the amount as raw quota when currency display is off', () => {
    const off = settings({ displayInCurrency: false });
    expect(topupUnits(1_250_000, off)).toBe(2);
    expect(minTopupAmount(off)).toBe(500000);
    expect(minTopupAmount(settings({ minTopUp: 5 }))).toBe(5);
  });

  it('turns dollars into quota exactly', () => {
    expect(unitsToQuota(3, 500000)).toBe(1_500_000);
    expect(unitsToQuota(3, 0.1)).toBe(0);
    expect(unitsToQuota(7, 333.3)).toBe(2333);
  });

  it('compares the money a gateway reports with the order as decimals', () => {
    expect(sameMoney('21.90', 21.9)).toBe(true);
    expect(sameMoney('21.9', 21.9)).toBe(true);
    expect(sameMoney('21.91', 21.9)).toBe(false);
    expect(sameMoney('abc', 21.9)).toBe(false);
  });
});

describe('Epay signatures', () => {
  it('signs the sorted non-empty parameters, excluding sign and sign_type, followed by the key', () => {
    const params = { c: '3', a: '1', b: '2', empty: '', sign: 'x', sign_type: 'MD5' };
    // md5("a=1&b=2&c=3KEY"), computed independently.
    expect(epaySign(params, 'KEY')).toBe('2a06839ab762f3729a21ad3bf3558c31');
  });

  it('accepts its own signature and refuses a changed parameter', () => {
    const params: Record<string, string> = { pid: '1', money: '1.00', out_trade_no: 'T1' };
    params.sign = epaySign(params, 'k');
    expect(epayVerify(params, 'k')).toBe(true);
    expect(epayVerify({ ...params, money: '100.00' }, 'k')).toBe(false);
    expect(epayVerify(params, 'other-key')).toBe(false);
    expect(epayVerify({ ...params, sign: '' }, 'k')).toBe(false);
  });
});
