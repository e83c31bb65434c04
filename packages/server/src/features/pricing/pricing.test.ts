import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PricingEntry } from '@sluice/shared';
import { testDialects } from '../../test-support/databases.js';
import { createTestApp } from '../../test-support/test-app.js';
import type { Caller, TestApp } from '../../test-support/test-app.js';

interface PricingBody {
  success: boolean;
  data: PricingEntry[];
  group_ratio: Record<string, number>;
  usable_group: Record<string, string>;
}

describe.each(testDialects())('pricing on %s', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    const set = (key: string, value: unknown) => t.app.ctx.options.set(key, JSON.stringify(value));
    await set('ModelRatio', { 'gpt-4o': 1.25, 'gpt-4': 15, o1: 7.5, 'old-model': 1 });
    await set('CompletionRatio', { 'gpt-4o': 4 });
    await set('ModelPrice', { 'dall-e-3': 0.04 });
    await set('GroupRatio', { default: 1, vip: 0.8, svip: 0.5 });
    await set('UserUsableGroups', { default: 'Default', vip: 'VIP' });
    const ability = (group: string, model: string, channel_id: number, enabled = 1) => ({
      group,
      model,
      channel_id,
      enabled,
    });
    await t.db.db
      .insertInto('abilities')
      .values([
        ability('default', 'gpt-4o', 1),
        ability('vip', 'gpt-4o', 2),
        ability('vip', 'gpt-4', 2),
        ability('default', 'dall-e-3', 1),
        ability('svip', 'o1', 3),
        // Served by a disabled channel only.
        ability('default', 'old-model', 4, 0),
        // Served, but with no price or ratio configured.
        ability('default', 'mystery-model', 1),
      ])
      .execute();
  });
  afterAll(async () => t?.close());

  const pricing = async (as?: Caller) => {
    const res = await t.call({ method: 'GET', url: '/api/pricing', ...(as ? { as } : {}) });
    expect(res.statusCode).toBe(200);
    return res.json<PricingBody>();
  };

  it('shows visitors the models the default group can reach, with prices and ratios', async () => {
    const body = await pricing();
    expect(body.success).toBe(true);
    expect(body.data).toEqual([
      {
        model_name: 'dall-e-3',
        quota_type: 1,
        model_ratio: 0,
        model_price: 0.04,
        completion_ratio: 1,
        enable_groups: ['default'],
      },
      {
        model_name: 'gpt-4',
        quota_type: 0,
        model_ratio: 15,
        model_price: 0,
        completion_ratio: 1,
        enable_groups: ['vip'],
      },
      {
        model_name: 'gpt-4o',
        quota_type: 0,
        model_ratio: 1.25,
        model_price: 0,
        completion_ratio: 4,
        enable_groups: ['default', 'vip'],
      },
    ]);
    expect(body.group_ratio).toEqual({ default: 1, vip: 0.8, svip: 0.5 });
    expect(body.usable_group).toEqual({ default: 'Default', vip: 'VIP' });
  });

  it("adds the models of a signed-in user's own group", async () => {
    const svip = await t.createUser({ group: 'svip' });
    const body = await pricing(svip);
    expect(body.data.map((e) => e.model_name)).toEqual(['dall-e-3', 'gpt-4', 'gpt-4o', 'o1']);
    expect(body.usable_group).toHaveProperty('svip');
    const regular = await t.createUser({ group: 'default' });
    expect((await pricing(regular)).data.map((e) => e.model_name)).not.toContain('o1');
  });
});
