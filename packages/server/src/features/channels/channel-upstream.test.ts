import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MSG, ROLE } from '@sluice/shared';
import type { ChannelView } from '@sluice/shared';
import { testDialects } from '../../test-support/databases.js';
import { channelTestsSettled } from './channel-testing.js';
import { createTestApp, expectRefusal } from '../../test-support/test-app.js';
import type { Caller, TestApp } from '../../test-support/test-app.js';

interface Body<T = unknown> {
  success: boolean;
  message: string;
  data: T;
  /** Beside the envelope, as new-api's clients read them. */
  time?: number;
  balance?: number;
}

interface Seen {
  method: string;
  path: string;
  authorization: string | undefined;
  /** midjourney-proxy's key header. */
  secret: string | undefined;
  body: string;
}

/** A stand-in upstream: answers by path from `routes`, records what it was asked. */
function fakeUpstream() {
  const seen: Seen[] = [];
  const routes = new Map<string, { status: number; body: unknown }>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0] ?? '';
      const body = Buffer.concat(chunks).toString();
      seen.push({
        method: req.method ?? '',
        path: req.url ?? '',
        authorization: req.headers.authorization,
        secret: req.headers['mj-api-secret']?.toString(),
        body,
      });
      const route = routes.get(path) ?? { status: 404, body: { error: { message: 'no such route' } } };
      res.writeHead(route.status, { 'content-type': 'application/json' });
      res.end(typeof route.body === 'string' ? route.body : JSON.stringify(route.body));
    });
  });
  return {
    seen,
    routes,
    start: () => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve)),
    url: () => `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe.each(testDialects())('channel upstream calls on %s', (dialect) => {
  let t: TestApp;
  let admin: Caller;
  const upstream = fakeUpstream();

  const call = async <T = unknown>(url: string) => {
    const res = await t.call({ method: 'GET', url, as: admin });
    return { status: res.statusCode, body: res.json<Body<T>>(), res };
  };
  const post = async <T = unknown>(url: string, payload: object) => {
    const res = await t.call({ method: 'POST', url, as: admin, payload });
    return { status: res.statusCode, body: res.json<Body<T>>(), res };
  };
  const create = async (payload: object): Promise<number> => {
    const res = await t.call({
      method: 'POST',
      url: '/api/channel/',
      as: admin,
      payload: { name: 'up', key: 'sk-up', models: 'gpt-4o', base_url: upstream.url(), ...payload },
    });
    return res.json<Body<{ ids: number[] }>>().data.ids[0] as number;
  };

  beforeAll(async () => {
    await upstream.start();
    t = await createTestApp({ dialect });
    admin = await t.createUser({ role: ROLE.admin });
  });
  afterAll(async () => {
    await t?.close();
    await upstream.close();
  });
  beforeEach(async () => {
    upstream.seen.length = 0;
    upstream.routes.clear();
    upstream.routes.set('/v1/dashboard/billing/subscription', { status: 200, body: { hard_limit_usd: 100 } });
    upstream.routes.set('/v1/dashboard/billing/usage', { status: 200, body: { total_usage: 1234.5 } });
    await t.db.db.deleteFrom('abilities').execute();
    await t.db.db.deleteFrom('channels').execute();
  });

  describe('balance', () => {
    it('stores limit minus usage for an OpenAI-compatible channel', async () => {
      const id = await create({});
      const res = await call<number>(`/api/channel/update_balance/${id}/`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, message: '', data: 87.655, balance: 87.655 });
      const view = (await call<ChannelView>(`/api/channel/${id}`)).body.data;
      expect(view.balance).toBe(87.655);
      expect(view.balance_updated_time).toBeGreaterThan(0);
      const usage = upstream.seen.find((s) => s.path.startsWith('/v1/dashboard/billing/usage'));
      expect(usage?.path).toMatch(/start_date=\d{4}-\d{2}-\d{2}&end_date=\d{4}-\d{2}-\d{2}$/);
      expect(upstream.seen.every((s) => s.authorization === 'Bearer sk-up')).toBe(true);
    });

    it('reads the balance APIs of Moonshot and SiliconCloud', async () => {
      upstream.routes.set('/v1/users/me/balance', {
        status: 200,
        body: { data: { available_balance: 42.5 } },
      });
      upstream.routes.set('/v1/user/info', { status: 200, body: { data: { totalBalance: '7.25' } } });
      expect(
        (await call<number>(`/api/channel/update_balance/${await create({ type: 25 })}`)).body.data,
      ).toBe(42.5);
      const silicon = await call<number>(`/api/channel/update_balance/${await create({ type: 40 })}`);
      expect({ data: silicon.body.data, balance: silicon.body.balance }).toEqual({
        data: 7.25,
        balance: 7.25,
      });
    });

    it('refuses channel types without a balance API', async () => {
      const id = await create({ type: 14 });
      expectRefusal((await call(`/api/channel/update_balance/${id}`)).res, MSG.balanceNotSupported);
      expectRefusal((await call('/api/channel/update_balance/999999')).res, MSG.channelNotFound);
    });

    it('refuses with the upstream reason when the upstream fails', async () => {
      upstream.routes.set('/v1/dashboard/billing/subscription', {
        status: 401,
        body: { error: { message: 'Incorrect API key provided' } },
      });
      const id = await create({});
      const res = await call(`/api/channel/update_balance/${id}`);
      expectRefusal(
        res.res,
        `${MSG.balanceUpdateFailed}: upstream answered HTTP 401: Incorrect API key provided`,
      );
      expect(res.body.data).toBeNull();
      expect((await call<ChannelView>(`/api/channel/${id}`)).body.data.balance_updated_time).toBe(0);
    });

    it('updates every enabled channel that has a balance API', async () => {
      const a = await create({});
      await create({ type: 14 });
      const disabled = await create({});
      await t.call({ method: 'PUT', url: '/api/channel/', as: admin, payload: { id: disabled, status: 2 } });
      await create({ base_url: 'http://127.0.0.1:1' });
      const res = await call<{ updated: number; failed: number }>('/api/channel/update_balance');
      expect(res.body.data).toEqual({ updated: 1, failed: 1 });
      expect((await call<ChannelView>(`/api/channel/${a}`)).body.data.balance).toBe(87.655);
      expect((await call<ChannelView>(`/api/channel/${disabled}`)).body.data.balance_updated_time).toBe(0);
    });
  });

  describe('fetch_models', () => {
    it('lists the models the upstream serves', async () => {
      upstream.routes.set('/v1/models', {
        status: 200,
        body: { object: 'list', data: [{ id: 'gpt-4o' }, { id: 'o1' }, { id: 'gpt-4o' }] },
      });
      const id = await create({});
      const res = await call<string[]>(`/api/channel/fetch_models/${id}`);
      expect(res.body.data).toEqual(['gpt-4o', 'o1']);
      expect(upstream.seen).toMatchObject([
        { method: 'GET', path: '/v1/models', authorization: 'Bearer sk-up' },
      ]);
    });

    it('refuses with the reason when the upstream fails or answers nonsense', async () => {
      const id = await create({});
      upstream.routes.set('/v1/models', { status: 500, body: { error: { message: 'boom' } } });
      const failed = await call(`/api/channel/fetch_models/${id}`);
      expectRefusal(failed.res, `${MSG.fetchModelsFailed}: upstream answered HTTP 500: boom`);
      upstream.routes.set('/v1/models', { status: 200, body: '<html>' });
      const garbled = await call(`/api/channel/fetch_models/${id}`);
      expectRefusal(
        garbled.res,
        `${MSG.fetchModelsFailed}: upstream answered with something that is not JSON`,
      );
    });

    it('refuses types Sluice has no model list for, and unknown channels', async () => {
      const baidu = await create({ type: 15, key: 'api|secret' });
      expectRefusal((await call(`/api/channel/fetch_models/${baidu}`)).res, MSG.onlyOpenAIFormat);
      expectRefusal((await call('/api/channel/fetch_models/999999')).res, MSG.channelNotFound);
    });
  });

  describe('fetch_models for a channel not stored yet', () => {
    it("asks the given upstream with the form's first key", async () => {
      upstream.routes.set('/v1/models', {
        status: 200,
        body: { object: 'list', data: [{ id: 'm-2' }, { id: 'm-1' }, { id: 'm-2' }] },
      });
      const res = await post<string[]>('/api/channel/fetch_models', {
        base_url: `${upstream.url()}/`,
        type: 8,
        key: '\n  sk-first \nsk-second\n',
      });
      expect(res.body).toEqual({ success: true, message: '', data: ['m-2', 'm-1'] });
      expect(upstream.seen).toMatchObject([
        { method: 'GET', path: '/v1/models', authorization: 'Bearer sk-first' },
      ]);
    });

    it("uses the type's public address when base_url is empty, and does not name it", async () => {
      // Ollama's default address is local, so the test never leaves the machine.
      const res = await post('/api/channel/fetch_models', { base_url: '', type: 4, key: 'sk-x' });
      expectRefusal(res.res, /^failed to get model list: the connection to the upstream failed/);
      expect(res.body.message).not.toContain('localhost');
      expect(upstream.seen).toEqual([]);
    });

    it('refuses with the reason when the upstream fails', async () => {
      upstream.routes.set('/v1/models', { status: 401, body: { error: { message: 'Incorrect API key' } } });
      const res = await post('/api/channel/fetch_models', {
        base_url: upstream.url(),
        type: 1,
        key: 'sk-bad',
      });
      expectRefusal(res.res, `${MSG.fetchModelsFailed}: upstream answered HTTP 401: Incorrect API key`);
    });

    it('refuses bad input before calling anyone', async () => {
      const cases: [object, string | RegExp][] = [
        [{ base_url: upstream.url(), type: 1 }, MSG.channelKeyRequired],
        [{ base_url: upstream.url(), type: 1, key: ' \n ' }, MSG.channelKeyRequired],
        [{ base_url: upstream.url(), type: 15, key: 'api|secret' }, MSG.onlyOpenAIFormat],
        [{ base_url: upstream.url(), type: 999, key: 'sk-x' }, MSG.unknownChannelType],
        [{ base_url: '', type: 8, key: 'sk-x' }, MSG.channelNoBaseUrl],
        [{ base_url: 5, type: 1, key: 'sk-x' }, /base_url/],
      ];
      for (const [payload, message] of cases) {
        expectRefusal((await post('/api/channel/fetch_models', payload)).res, message);
      }
      expect(upstream.seen).toEqual([]);
    });
  });

  describe('test', () => {
    const completion = {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 1,
      model: 'gpt-4o',
      choices: [{ index: 0, message: { role: 'assistant', content: 'hello' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
    };

    it('sends a small chat call through the channel and records the time', async () => {
      upstream.routes.set('/v1/chat/completions', { status: 200, body: completion });
      const id = await create({ test_model: 'gpt-4o' });
      const res = await call<{ time: number }>(`/api/channel/test/${id}`);
      expect(res.status).toBe(200);
      expect(res.body.success).toBe(true);
      expect(res.body.data.time).toBeGreaterThanOrEqual(0);
      expect(res.body.time).toBe(res.body.data.time);
      const sent = upstream.seen.find((s) => s.path === '/v1/chat/completions');
      expect(sent).toMatchObject({ method: 'POST', authorization: 'Bearer sk-up' });
      expect(JSON.parse(sent?.body ?? '{}')).toMatchObject({ model: 'gpt-4o' });
      expect((await call<ChannelView>(`/api/channel/${id}`)).body.data.test_time).toBeGreaterThan(0);
    });

    it("answers the upstream's message when the call fails", async () => {
      upstream.routes.set('/v1/chat/completions', {
        status: 401,
        body: { error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } },
      });
      const id = await create({});
      const res = await call<{ time: number }>(`/api/channel/test/${id}`);
      expectRefusal(res.res, /Incorrect API key provided/);
      expect(res.body.message).not.toContain(upstream.url());
      expect(res.body.message).not.toContain('sk-up');
      expect(typeof res.body.time).toBe('number');
      expect(res.body.data.time).toBe(res.body.time);
    });
  });

  describe('Midjourney channels', () => {
    it('are tested with a free task query that needs the key, and pass when the proxy takes it', async () => {
      upstream.routes.set('/mj/task/list-by-condition', { status: 200, body: [] });
      for (const type of [2, 5]) {
        const id = await create({ type, key: 'mj-secret', models: 'mj_imagine' });
        const res = await call<{ time: number }>(`/api/channel/test/${id}`);
        expect(res.body.success, res.body.message).toBe(true);
        expect((await call<ChannelView>(`/api/channel/${id}`)).body.data.test_time).toBeGreaterThan(0);
      }
      expect(upstream.seen.map((s) => [s.method, s.path, s.secret, JSON.parse(s.body)])).toEqual([
        ['POST', '/mj/task/list-by-condition', 'mj-secret', { ids: [] }],
        ['POST', '/mj/task/list-by-condition', 'mj-secret', { ids: [] }],
      ]);
    });

    it("say the key was refused when the proxy answers 401, without the key or the proxy's address", async () => {
      upstream.routes.set('/mj/task/list-by-condition', { status: 401, body: '' });
      const id = await create({ type: 2, key: 'mj-wrong-secret', models: 'mj_imagine' });
      const res = await call(`/api/channel/test/${id}`);
      expectRefusal(res.res, /refused the channel's key/);
      expect(res.body.message).not.toContain('mj-wrong-secret');
      expect(res.body.message).not.toContain(upstream.url());
    });
  });

  describe('channel types Sluice cannot test', () => {
    const untestable = [
      [15, 'Baidu Wenxin'],
      [18, 'iFlytek Spark'],
    ] as const;
    const keyFor = (type: number) => (type === 18 ? 'app|secret|key' : type === 15 ? 'api|secret' : 'sk-up');

    beforeEach(async () => {
      await t.app.ctx.options.set('AutomaticDisableChannelEnabled', 'true');
    });
    afterAll(async () => {
      await t.app.ctx.options.set('AutomaticDisableChannelEnabled', 'false');
    });

    it('says so for a single test, naming the type, and leaves the channel enabled', async () => {
      for (const [type, label] of untestable) {
        const id = await create({ type, key: keyFor(type) });
        const res = await call<{ time: number }>(`/api/channel/test/${id}`);
        expectRefusal(res.res, MSG.channelTypeNotTestable(`${label} (${type})`));
        expect((await call<ChannelView>(`/api/channel/${id}`)).body.data).toMatchObject({
          status: 1,
          test_time: 0,
        });
      }
      expect(upstream.seen).toEqual([]);
    });

    it('skips them in "test all", where a real upstream failure still disables its channel', async () => {
      upstream.routes.set('/v1/chat/completions', {
        status: 401,
        body: { error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } },
      });
      const skipped = [];
      for (const [type] of untestable) skipped.push(await create({ type, key: keyFor(type) }));
      const failing = await create({});
      expect((await call('/api/channel/test')).body.message).toBe(MSG.channelTestsStarted);
      await channelTestsSettled(t.app.ctx);
      for (const id of skipped) {
        const view = (await call<ChannelView>(`/api/channel/${id}`)).body.data;
        expect({ id, status: view.status, other_info: view.other_info }).toEqual({
          id,
          status: 1,
          other_info: '{}',
        });
      }
      const failed = (await call<ChannelView>(`/api/channel/${failing}`)).body.data;
      expect(failed.status).toBe(3);
      expect(JSON.parse(failed.other_info).status_reason).toContain('Incorrect API key provided');
    });
  });
});
