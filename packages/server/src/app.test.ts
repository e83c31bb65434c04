import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from './test-support/databases.js';
import { createTestApp } from './test-support/test-app.js';
import type { TestApp } from './test-support/test-app.js';

describe.each(testDialects())('server core on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ dialect });
  });
  afterAll(async () => t?.close());

  it('creates the root account on first start', async () => {
    const root = await t.db.db
      .selectFrom('users')
      .selectAll()
      .where('username', '=', 'root')
      .executeTakeFirstOrThrow();
    expect(root.role).toBe(100);
    expect(root.quota).toBe(100_000_000);
    expect(root.password).not.toBe('123456');
  });

  it('answers /api/status in the envelope with the site fields', async () => {
    const res = await t.call({ method: 'GET', url: '/api/status' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-request-id']).toBeTruthy();
    const body = res.json();
    expect(body.success).toBe(true);
    expect(body.data).toMatchObject({
      system_name: 'Sluice',
      quota_per_unit: 500000,
      min_topup: 1,
      price: 7.3,
    });
  });

  it('answers unknown /api routes with a JSON 404', async () => {
    const res = await t.call({ method: 'GET', url: '/api/nope' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ success: false });
  });

  it('answers unknown /v1 routes with an OpenAI-format 501', async () => {
    const res = await t.call({ method: 'POST', url: '/v1/nope' });
    expect(res.statusCode).toBe(501);
    expect(res.json().error.code).toBe('unsupported_endpoint');
  });
});
