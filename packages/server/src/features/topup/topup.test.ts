import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LOG_TYPE, MSG } from '@sluice/shared';
import type { PayAnswer } from '@sluice/shared';
import { testDialects } from '../../test-support/databases.js';
import { gatewaySign, startFakeEpay } from '../../test-support/fakes/fake-epay.js';
import type { FakeEpay } from '../../test-support/fakes/fake-epay.js';
import { createTestApp, expectRefusal } from '../../test-support/test-app.js';
import type { Caller, TestApp } from '../../test-support/test-app.js';

describe.each(testDialects())('online top-up on %s', (dialect) => {
  let t: TestApp;
  let gateway: FakeEpay;
  let serverUrl: string;
  let user: Caller;

  const setOption = (key: string, value: string) => t.app.ctx.options.set(key, value);
  const configureGateway = async () => {
    await setOption('PayAddress', gateway.url);
    await setOption('EpayId', gateway.pid);
    await setOption('EpayKey', gateway.key);
    await setOption('ServerAddress', serverUrl);
  };

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    // The gateway calls the notify URL over real HTTP.
    serverUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
    gateway = await startFakeEpay();
  });
  afterAll(async () => {
    await gateway?.close();
    await t?.close();
  });
  beforeEach(async () => {
    user = await t.createUser({ quota: 0 });
    for (const [key, value] of Object.entries({
      PayAddress: '',
      EpayId: '',
      EpayKey: '',
      CustomCallbackAddress: '',
      Price: '7.3',
      MinTopUp: '1',
      TopupGroupRatio: '{"default":1,"vip":0.9}',
      DisplayInCurrencyEnabled: 'true',
    })) {
      await setOption(key, value);
    }
  });

  const quotaOf = async (id: number) =>
    Number(
      (await t.db.db.selectFrom('users').select('quota').where('id', '=', id).executeTakeFirstOrThrow())
        .quota,
    );
  const pay = async (as: Caller, payload: Record<string, unknown>) => {
    const res = await t.call({ method: 'POST', url: '/api/user/pay', as, payload });
    return { status: res.statusCode, body: res.json<PayAnswer & { message: string }>() };
  };
  const orderOf = (tradeNo: string) =>
    t.db.db.selectFrom('top_ups').selectAll().where('trade_no', '=', tradeNo).executeTakeFirstOrThrow();
  /** Places an order and hands it to the fake gateway, as the console's hidden form does. */
  const placeOrder = async (as: Caller, amount: number) => {
    const { status, body } = await pay(as, { amount, payment_method: 'zfb' });
    expect(status, body.message).toBe(200);
    expect((await gateway.submit(body.data)).status).toBe(200);
    return body.data.out_trade_no;
  };

  it('quotes amount × Price × the top-up ratio of the user’s group, as a 2-decimal string', async () => {
    const vip = await t.createUser({ group: 'vip' });
    const quote = async (as: Caller, amount: number) =>
      (
        await t.call({ method: 'POST', url: '/api/user/amount', as, payload: { amount, top_up_code: '' } })
      ).json();
    expect(await quote(user, 3)).toMatchObject({ success: true, message: 'success', data: '21.90' });
    expect((await quote(vip, 3)).data).toBe('19.71');
    await setOption('Price', '1.005');
    expect((await quote(user, 1)).data).toBe('1.01');
  });

  it('refuses an amount below the minimum, naming the minimum', async () => {
    await setOption('MinTopUp', '5');
    for (const url of ['/api/user/amount', '/api/user/pay']) {
      const res = await t.call({
        method: 'POST',
        url,
        as: user,
        payload: { amount: 4, payment_method: 'wx' },
      });
      expectRefusal(res);
      if (url === '/api/user/amount') expect(res.json().message).toBe(MSG.topupBelowMinimum(5));
    }
    await configureGateway();
    const res = await pay(user, { amount: 4, payment_method: 'wx' });
    expect(res.body.message).toBe(MSG.topupBelowMinimum(5));
    const bad = await t.call({ method: 'POST', url: '/api/user/amount', as: user, payload: { amount: 1.5 } });
    expect(bad.json().message).toBe(MSG.topupAmountInvalid);
  });

  it('refuses to pay while the gateway is not configured', async () => {
    const res = await pay(user, { amount: 10, payment_method: 'zfb' });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(false);
    expect(res.body.message).toBe(MSG.onlineTopupDisabled);
    await configureGateway();
    const method = await pay(user, { amount: 10, payment_method: 'paypal' });
    expect(method.body.message).toBe(MSG.paymentMethodInvalid);
  });

  it('returns the signed gateway form and records a pending order', async () => {
    await configureGateway();
    const { status, body } = await pay(user, { amount: 2, payment_method: 'wx', top_up_code: '' });
    expect(status).toBe(200);
    expect(body.message).toBe('success');
    expect(body.url).toBe(`${gateway.url}/submit.php`);
    expect(body.data).toMatchObject({
      pid: gateway.pid,
      type: 'wxpay',
      notify_url: `${serverUrl}/api/user/epay/notify`,
      return_url: `${serverUrl}/log`,
      money: '14.60',
      sign_type: 'MD5',
    });
    expect(body.data.sign).toBe(gatewaySign(body.data, gateway.key));
    expect(await orderOf(body.data.out_trade_no)).toMatchObject({ user_id: user.id, status: 'pending' });
    expect(Number((await orderOf(body.data.out_trade_no)).amount)).toBe(2);
    // The gateway accepts the form the browser posts.
    expect((await gateway.submit(body.data)).status).toBe(200);
  });

  it('sends the notification to CustomCallbackAddress when it is set', async () => {
    await configureGateway();
    await setOption('CustomCallbackAddress', 'https://callback.example.com/');
    const { body } = await pay(user, { amount: 1, payment_method: 'zfb' });
    expect(body.data.notify_url).toBe('https://callback.example.com/api/user/epay/notify');
    expect(body.data.type).toBe('alipay');
  });

  it('credits the quota and logs the top-up when the gateway reports payment', async () => {
    await configureGateway();
    const tradeNo = await placeOrder(user, 3);
    expect(await gateway.pay(tradeNo)).toBe('success');
    expect(await quotaOf(user.id)).toBe(1_500_000);
    const order = await orderOf(tradeNo);
    expect(order.status).toBe('success');
    expect(Number(order.complete_time)).toBeGreaterThan(0);
    const log = await t.db.db
      .selectFrom('logs')
      .selectAll()
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(log.type).toBe(LOG_TYPE.topup);
    expect(log.content).toBe(`online top-up of $3.00, paid 21.90 (order ${tradeNo})`);
    // The facts the console words the row from, in the reader's language.
    expect(JSON.parse(log.other)).toEqual({
      event: 'online_topup',
      quota: 1_500_000,
      quota_delta: 1_500_000,
      money: '21.90',
      payment_method: 'alipay',
      trade_no: tradeNo,
    });
  });

  it('credits exactly once when the gateway repeats its notification 20 times at once', async () => {
    await configureGateway();
    const tradeNo = await placeOrder(user, 2);
    const heard: Array<string | undefined> = [];
    const stop = t.app.ctx.bus.subscribe('users', (id) => heard.push(id));
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => gateway.pay(tradeNo, { method: i % 2 ? 'POST' : 'GET' })),
    );
    stop();
    expect(answers).toEqual(Array(20).fill('success'));
    expect(await quotaOf(user.id)).toBe(1_000_000);
    const logs = await t.db.db.selectFrom('logs').select('id').where('user_id', '=', user.id).execute();
    expect(logs).toHaveLength(1);
    expect(heard).toEqual([String(user.id)]);
  });

  it('credits nothing for a forged signature, another merchant, a different sum or an unknown order', async () => {
    await configureGateway();
    const tradeNo = await placeOrder(user, 1);
    const forged = gateway.notification(tradeNo, { sign: 'f'.repeat(32) });
    // Signed, then changed on the way.
    const tampered = gateway.notification(tradeNo);
    tampered.money = '99.00';
    const cases: Record<string, string>[] = [
      forged,
      tampered,
      // Correctly signed, but for another merchant id or a different sum.
      gateway.notification(tradeNo, { pid: '999' }),
      gateway.notification(tradeNo, { money: '0.01' }),
      gateway.notification(tradeNo, { out_trade_no: 'NO-SUCH-ORDER' }),
    ];
    for (const params of cases) {
      const res = await t.call({ method: 'GET', url: '/api/user/epay/notify', query: params });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/plain/);
      expect(res.body).toBe('fail');
    }
    expect(await quotaOf(user.id)).toBe(0);
    expect((await orderOf(tradeNo)).status).toBe('pending');
    // An unpaid trade state is acknowledged without crediting.
    const waiting = await t.call({
      method: 'GET',
      url: '/api/user/epay/notify',
      query: gateway.notification(tradeNo, { trade_status: 'WAIT_BUYER_PAY' }),
    });
    expect(waiting.body).toBe('success');
    expect(await quotaOf(user.id)).toBe(0);
  });

  it('answers fail while the gateway is not configured', async () => {
    await configureGateway();
    const tradeNo = await placeOrder(user, 1);
    await setOption('EpayKey', '');
    expect(await gateway.pay(tradeNo)).toBe('fail');
    expect(await quotaOf(user.id)).toBe(0);
  });

  it('takes the amount as raw quota when currency display is off', async () => {
    await configureGateway();
    await setOption('DisplayInCurrencyEnabled', 'false');
    const below = await pay(user, { amount: 400000, payment_method: 'zfb' });
    expect(below.body.message).toBe(MSG.topupBelowMinimum(500000));
    const quote = await t.call({
      method: 'POST',
      url: '/api/user/amount',
      as: user,
      payload: { amount: 1_000_000 },
    });
    expect(quote.json().data).toBe('14.60');
    const tradeNo = await placeOrder(user, 1_000_000);
    expect(await gateway.pay(tradeNo)).toBe('success');
    expect(await quotaOf(user.id)).toBe(1_000_000);
  });

  it('works with a personal access token', async () => {
    await t.db.db
      .updateTable('users')
      .set({ access_token: `pat-topup-${user.id}` })
      .where('id', '=', user.id)
      .execute();
    const res = await t.call({
      method: 'POST',
      url: '/api/user/amount',
      headers: { authorization: `pat-topup-${user.id}` },
      payload: { amount: 1 },
    });
    expect(res.json().data).toBe('7.30');
  });
});
