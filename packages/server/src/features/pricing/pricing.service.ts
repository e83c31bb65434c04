// The pricing page: every model an enabled channel serves to a group the caller may use, with the
// price or ratios it is billed at.
import type { PricingEntry } from '@sluice/shared';
import type { AppContext } from '../../app-context.js';

export interface PricingAnswer {
  data: PricingEntry[];
  group_ratio: Record<string, number>;
  /** Group → description, for the groups the caller may use. */
  usable_group: Record<string, string>;
}

export async function pricingFor(ctx: AppContext, group: string): Promise<PricingAnswer> {
  const o = ctx.options;
  const usable: Record<string, string> = { ...o.get('UserUsableGroups') };
  if (!Object.hasOwn(usable, group)) usable[group] = group;

  const abilities = await ctx.db
    .selectFrom('abilities')
    .select(['group', 'model'])
    .where('enabled', '=', 1)
    .groupBy(['group', 'model'])
    .execute();
  const groupsByModel = new Map<string, Set<string>>();
  for (const a of abilities) {
    let set = groupsByModel.get(a.model);
    if (!set) groupsByModel.set(a.model, (set = new Set()));
    set.add(a.group);
  }

  const prices = o.get('ModelPrice');
  const ratios = o.get('ModelRatio');
  const completion = o.get('CompletionRatio');
  const data: PricingEntry[] = [];
  for (const [model, groups] of [...groupsByModel].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const perCall = Object.hasOwn(prices, model);
    if (!perCall && !Object.hasOwn(ratios, model)) continue;
    if (![...groups].some((g) => Object.hasOwn(usable, g))) continue;
    data.push({
      model_name: model,
      quota_type: perCall ? 1 : 0,
      model_ratio: ratios[model] ?? 0,
      model_price: prices[model] ?? 0,
      completion_ratio: completion[model] ?? 1,
      enable_groups: [...groups].sort(),
    });
  }
  return { data, group_ratio: { ...o.get('GroupRatio') }, usable_group: usable };
}
