// The pricing table's columns: availability for the chosen group, name (click copies), billing
// type, serving groups, ratios and the price in the chosen group.
import { CheckCircleFilled, MinusCircleOutlined } from '@ant-design/icons';
import { Flex, Tag, Tooltip, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import type { PricingEntry } from '@sluice/shared';
import type { TFunction } from 'i18next';
import { displayedPrice, isAvailable } from './price';
import type { PriceDisplaySettings } from './price';

export interface PricingColumnsArgs {
  t: TFunction;
  /** The group prices and availability are shown for. */
  group: string;
  groupRatio: number;
  settings: PriceDisplaySettings;
  onCopy(name: string): void;
  colors: { success: string; muted: string };
}

export function pricingColumns(args: PricingColumnsArgs): TableColumnsType<PricingEntry> {
  const { t, group, groupRatio, settings, onCopy, colors } = args;
  const amount = (value: string) =>
    settings.displayInCurrency ? value : t('pricing.quotaAmount', { value });
  return [
    {
      title: t('pricing.column.available'),
      key: 'available',
      align: 'center',
      width: 90,
      render: (_, row) => {
        const yes = isAvailable(row, group);
        const label = t(yes ? 'pricing.available' : 'pricing.unavailable', { group });
        return (
          <Tooltip title={label}>
            {yes ? (
              <CheckCircleFilled
                aria-label={label}
                role="img"
                style={{ color: colors.success, fontSize: 16 }}
              />
            ) : (
              <MinusCircleOutlined
                aria-label={label}
                role="img"
                style={{ color: colors.muted, fontSize: 16 }}
              />
            )}
          </Tooltip>
        );
      },
    },
    {
      title: t('pricing.column.model'),
      dataIndex: 'model_name',
      render: (name: string) => (
        <Typography.Text
          strong
          role="button"
          tabIndex={0}
          style={{ cursor: 'pointer' }}
          onClick={() => onCopy(name)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' || e.key === ' ') {
              e.preventDefault();
              onCopy(name);
            }
          }}
        >
          {name}
        </Typography.Text>
      ),
    },
    {
      title: t('pricing.column.type'),
      key: 'type',
      render: (_, row) =>
        row.quota_type === 1 ? (
          <Tag color="purple">{t('pricing.type.call')}</Tag>
        ) : (
          <Tag color="blue">{t('pricing.type.usage')}</Tag>
        ),
    },
    {
      title: t('pricing.column.groups'),
      key: 'groups',
      render: (_, row) => (
        <Flex wrap gap={4}>
          {row.enable_groups.map((g) => (
            <Tag key={g} color={g === group ? 'green' : undefined} style={{ marginInlineEnd: 0 }}>
              {g}
            </Tag>
          ))}
        </Flex>
      ),
    },
    {
      title: t('pricing.column.ratio'),
      key: 'ratio',
      render: (_, row) =>
        row.quota_type === 1 ? (
          <Typography.Text type="secondary">{t('pricing.noRatio')}</Typography.Text>
        ) : (
          <Flex vertical>
            <span>{t('pricing.modelRatio', { value: row.model_ratio })}</span>
            <span>{t('pricing.completionRatio', { value: row.completion_ratio })}</span>
          </Flex>
        ),
    },
    {
      title: t('pricing.column.price'),
      key: 'price',
      render: (_, row) => {
        const price = displayedPrice(row, groupRatio, settings);
        return price.type === 'call' ? (
          <span>{t('pricing.callPrice', { price: amount(price.perCall) })}</span>
        ) : (
          <Flex vertical>
            <span>{t('pricing.promptPrice', { price: amount(price.prompt) })}</span>
            <span>{t('pricing.completionPrice', { price: amount(price.completion) })}</span>
          </Flex>
        );
      },
    },
  ];
}
