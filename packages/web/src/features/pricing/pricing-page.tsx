// /pricing (public): every model the caller's groups can reach, with its price in the chosen group.
// Visitors see the default group's view; signed-in users start on their own group.
import { Alert, Card, Form, Input, Radio, Select, Space, Tooltip, Typography, theme } from 'antd';
import type { PricingEntry } from '@sluice/shared';
import { DEFAULT_GROUP } from '@sluice/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCopy } from '../../components/copy';
import { DataTable, ListSearch, useList } from '../../components/data-table';
import type { ListFetchArgs } from '../../components/data-table';
import { useUser } from '../../lib/session';
import { useStatus } from '../../lib/status';
import { ensurePricing, usePricing } from './api';
import { groupRatioOf, shownGroup } from './price';
import { pricingColumns } from './pricing-columns';
import { PRICING_FILTERS, filterModels, pageOf, servedGroups } from './pricing-filter';

const rowKey = (row: PricingEntry) => row.model_name;

export function PricingPage() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const user = useUser();
  const userId = user?.id ?? 0;
  const status = useStatus();
  const copy = useCopy();
  const queryClient = useQueryClient();
  const pricing = usePricing(userId);
  const [chosenGroup, setChosenGroup] = useState<string | null>(null);

  const fetchPage = useCallback(
    async ({ page, pageSize, filters }: ListFetchArgs) => {
      const rows = filterModels((await ensurePricing(queryClient, userId)).models, filters);
      return { items: pageOf(rows, page, pageSize), total: rows.length };
    },
    [queryClient, userId],
  );
  const list = useList<PricingEntry>({ id: 'pricing', filters: PRICING_FILTERS, rowKey, fetchPage });
  const { refresh } = list;

  // Signing in or out changes which models the caller's groups reach.
  const shownFor = useRef(userId);
  useEffect(() => {
    if (shownFor.current === userId) return;
    shownFor.current = userId;
    void refresh();
  }, [userId, refresh]);

  const usable = useMemo(() => pricing.data?.usableGroups ?? {}, [pricing.data]);
  const ratios = useMemo(() => pricing.data?.groupRatio ?? {}, [pricing.data]);
  const groupChoices = Object.keys(usable);
  const group = shownGroup(usable, chosenGroup, user?.group || DEFAULT_GROUP);
  const groupRatio = groupRatioOf(ratios, group);

  const columns = useMemo(
    () =>
      pricingColumns({
        t,
        group,
        groupRatio,
        settings: { displayInCurrency: status.display_in_currency, quotaPerUnit: status.quota_per_unit },
        onCopy: (name) => void copy(name, t('copy.copiedValue', { value: name })),
        colors: { success: token.colorSuccess, muted: token.colorTextQuaternary },
      }),
    [t, group, groupRatio, status.display_in_currency, status.quota_per_unit, copy, token],
  );

  const groupFilterOptions = servedGroups(pricing.data?.models ?? []).map((g) => ({ value: g, label: g }));

  return (
    <Card title={<h1 style={{ fontSize: 'inherit', margin: 0 }}>{t('pricing.title')}</h1>}>
      <Typography.Paragraph type="secondary">{t('pricing.hint')}</Typography.Paragraph>
      {pricing.isError && (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 16 }}
          title={t('pricing.loadFailed', { message: pricing.error.message })}
        />
      )}
      {groupChoices.length > 0 && (
        <Space wrap align="center" style={{ marginBottom: 16 }}>
          <Typography.Text id="pricing-group-label">{t('pricing.groupRatioLabel')}</Typography.Text>
          <Radio.Group
            aria-labelledby="pricing-group-label"
            optionType="button"
            buttonStyle="solid"
            value={group}
            onChange={(e) => setChosenGroup(String(e.target.value))}
          >
            {groupChoices.map((g) => (
              <Tooltip key={g} title={usable[g] && usable[g] !== g ? usable[g] : undefined}>
                <Radio.Button value={g}>
                  {t('pricing.groupRatioOption', { group: g, ratio: groupRatioOf(ratios, g) })}
                </Radio.Button>
              </Tooltip>
            ))}
          </Radio.Group>
        </Space>
      )}
      <ListSearch list={list}>
        <Form.Item name="keyword">
          <Input
            allowClear
            aria-label={t('pricing.searchLabel')}
            placeholder={t('pricing.searchPlaceholder')}
            style={{ width: 240, maxWidth: '100%' }}
          />
        </Form.Item>
        {/* A filter's "none" is '' in the URL; the select shows its placeholder for it. */}
        <Form.Item name="group" getValueProps={(value: unknown) => ({ value: value || undefined })}>
          <Select
            allowClear
            aria-label={t('pricing.groupFilterLabel')}
            placeholder={t('pricing.groupFilterPlaceholder')}
            options={groupFilterOptions}
            style={{ width: 160 }}
          />
        </Form.Item>
        <Form.Item name="type" getValueProps={(value: unknown) => ({ value: value || undefined })}>
          <Select
            allowClear
            aria-label={t('pricing.typeFilterLabel')}
            placeholder={t('pricing.typeFilterPlaceholder')}
            options={[
              { value: 'usage', label: t('pricing.type.usage') },
              { value: 'call', label: t('pricing.type.call') },
            ]}
            style={{ width: 170 }}
          />
        </Form.Item>
      </ListSearch>
      <DataTable list={list} columns={columns} />
    </Card>
  );
}
