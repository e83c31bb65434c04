// A channel test's failure is shown to admins, who are not root: what the upstream says is passed on
// without the channel's key or the upstream's addresses.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockUpstream } from '@sluice/mock-upstream';
import type { MockUpstream } from '@sluice/mock-upstream';
import { ROLE } from '@sluice/shared';
import { createTestApp } from '../test-support/test-app.js';
import type { TestApp } from '../test-support/test-app.js';
import { addChannel } from '../test-support/relay-kit.js';

describe('channel test results', () => {
  let mock: MockUpstream;
  let t: TestApp;
  beforeAll(async () => {
    mock = await startMockUpstream();
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
    await mock?.close();
  });

  it("never show the channel's key or an internal address the upstream echoes", async () => {
    const key = 'sk-echoed-secret-key-123456';
    const id = await addChannel(t, { base_url: mock.url, models: 'gpt-4o-mini', key, auto_ban: 0 });
    mock.enqueue({
      status: 401,
      error: { message: `key ${key} refused by http://10.0.0.5:8080/v1 (gateway 192.168.1.20)` },
    });
    const admin = await t.createUser({ role: ROLE.admin });
    const res = await t.call({ method: 'GET', url: `/api/channel/test/${id}`, as: admin });
    const body = res.json<{ success: boolean; message: string }>();
    expect(body.success).toBe(false);
    expect(body.message).toContain('refused');
    for (const secret of [key, '10.0.0.5', '192.168.1.20']) expect(body.message).not.toContain(secret);
  });
});
