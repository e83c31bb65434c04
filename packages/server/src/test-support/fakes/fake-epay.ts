// A fake Epay gateway on 127.0.0.1: accepts the browser's form post to /submit.php (checking its
// signature as the real gateway does) and, when a test "pays", calls the merchant's notify_url with
// a signed notification. Signatures are computed here independently of the server's code.
import { createHash } from 'node:crypto';
import { startFakeServer } from './http-fake.js';
import type { FakeServer } from './http-fake.js';

export interface FakeEpay {
  /** The PayAddress to configure. */
  url: string;
  pid: string;
  key: string;
  /** Orders accepted by submit.php, by out_trade_no. */
  orders: Map<string, Record<string, string>>;
  /** Posts the form fields the server returned, as the browser does; returns the gateway's verdict. */
  submit(fields: Record<string, string>): Promise<{ status: number; body: unknown }>;
  /** The signed notification the gateway sends once an order is paid. */
  notification(outTradeNo: string, overrides?: Record<string, string>): Record<string, string>;
  /** Pays an accepted order: calls its notify_url (GET) and returns the merchant's answer text. */
  pay(
    outTradeNo: string,
    opts?: { overrides?: Record<string, string>; method?: 'GET' | 'POST' },
  ): Promise<string>;
  close(): Promise<void>;
}

export function gatewaySign(params: Record<string, string>, key: string): string {
  const pairs: string[] = [];
  for (const name of Object.keys(params).sort()) {
    const value = params[name];
    if (name === 'sign' || name === 'sign_type' || value === undefined || value === '') continue;
    pairs.push(`${name}=${value}`);
  }
  return createHash('md5')
    .update(pairs.join('&') + key)
    .digest('hex');
}

export async function startFakeEpay(opts: { pid?: string; key?: string } = {}): Promise<FakeEpay> {
  const pid = opts.pid ?? '1001';
  const key = opts.key ?? 'epay-merchant-key';
  const orders = new Map<string, Record<string, string>>();
  let tradeSeq = 0;

  const server: FakeServer = await startFakeServer((req) => {
    if (req.path !== '/submit.php') return { status: 404, json: { error: 'not found' } };
    const fields = req.method === 'GET' ? Object.fromEntries(req.query) : req.fields;
    if (fields.pid !== pid) return { status: 400, json: { error: 'unknown merchant' } };
    if (fields.sign !== gatewaySign(fields, key)) return { status: 400, json: { error: 'bad signature' } };
    orders.set(fields.out_trade_no ?? '', fields);
    return { json: { ok: true, pay_url: `/pay/${fields.out_trade_no}` } };
  });

  const notification = (outTradeNo: string, overrides: Record<string, string> = {}) => {
    const order = orders.get(outTradeNo);
    if (!order) throw new Error(`the fake gateway has no order ${outTradeNo}`);
    const params: Record<string, string> = {
      pid,
      trade_no: `EP${++tradeSeq}`,
      out_trade_no: outTradeNo,
      type: order.type ?? '',
      name: order.name ?? '',
      money: order.money ?? '',
      trade_status: 'TRADE_SUCCESS',
      ...overrides,
    };
    if (overrides.sign === undefined) params.sign = gatewaySign(params, key);
    params.sign_type = 'MD5';
    return params;
  };

  return {
    url: server.url,
    pid,
    key,
    orders,
    async submit(fields) {
      const res = await fetch(`${server.url}/submit.php`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields).toString(),
      });
      return { status: res.status, body: await res.json() };
    },
    notification,
    async pay(outTradeNo, o = {}) {
      const order = orders.get(outTradeNo);
      if (!order?.notify_url) throw new Error(`the fake gateway has no notify_url for ${outTradeNo}`);
      const params = new URLSearchParams(notification(outTradeNo, o.overrides));
      const res =
        o.method === 'POST'
          ? await fetch(order.notify_url, {
              method: 'POST',
              headers: { 'content-type': 'application/x-www-form-urlencoded' },
              body: params.toString(),
            })
          : await fetch(`${order.notify_url}?${params.toString()}`);
      return res.text();
    },
    close: () => server.close(),
  };
}
