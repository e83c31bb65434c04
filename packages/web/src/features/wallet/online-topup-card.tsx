// Online top-up: an amount (whole numbers, at least the site's minimum), the live price from the
// server, and Alipay / WeChat buttons that confirm and then send the browser to the gateway.
import { AlipayOutlined, WechatOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Descriptions, Flex, Form, InputNumber, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useFeedback } from '../../components/feedback';
import { ApiError, translateServerMessage } from '../../lib/api';
import { useStatus } from '../../lib/status';
import { createPaymentOrder, fetchQuote, quoteQueryKey, submitPaymentForm } from './api';
import type { PaymentMethod } from './api';
import { amountAllowed, minTopupAmount, normaliseAmount } from './topup-rules';

/** Waits for typing to pause before asking the server for a price. */
const QUOTE_DELAY_MS = 300;

function useSettled<T>(value: T, delay: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return settled;
}

export function OnlineTopupCard() {
  const { t } = useTranslation();
  const { message, modal } = useFeedback();
  const queryClient = useQueryClient();
  const status = useStatus();
  const enabled = status.enable_online_topup;
  const min = minTopupAmount(status);
  // undefined until the user types: the field starts at the site's minimum.
  const [entered, setEntered] = useState<number | null | undefined>(undefined);
  const amount = entered === undefined ? min : entered;
  const settled = useSettled(amount, QUOTE_DELAY_MS);
  const quotable = enabled && amountAllowed(settled, min);

  const quoteOptions = (value: number) => ({
    queryKey: quoteQueryKey(value),
    queryFn: () => fetchQuote(value),
    staleTime: 60_000,
  });
  const quote = useQuery({ ...quoteOptions(settled ?? 0), enabled: quotable });

  const errorText = (error: unknown): string => {
    if (error instanceof ApiError && error.status === 0) return t('http.failure', { message: error.message });
    return translateServerMessage(error instanceof Error ? error.message : String(error));
  };

  const pay = async (method: PaymentMethod) => {
    if (!amountAllowed(amount, min)) {
      void message.error(t('wallet.belowMinimum', { min }));
      return;
    }
    let money: string;
    try {
      money = await queryClient.fetchQuery(quoteOptions(amount));
    } catch (error) {
      void message.error(errorText(error));
      return;
    }
    modal.confirm({
      title: t('wallet.confirmTitle'),
      okText: t('wallet.pay'),
      content: (
        <>
          <Descriptions
            column={1}
            size="small"
            items={[
              { key: 'amount', label: t('wallet.confirmAmount'), children: amount },
              { key: 'price', label: t('wallet.confirmPrice'), children: t('wallet.priceValue', { money }) },
              {
                key: 'method',
                label: t('wallet.confirmMethod'),
                children: method === 'zfb' ? t('wallet.alipay') : t('wallet.wechat'),
              },
            ]}
          />
          <Typography.Paragraph type="secondary" style={{ margin: '8px 0 0' }}>
            {t('wallet.confirmHint')}
          </Typography.Paragraph>
        </>
      ),
      onOk: async () => {
        try {
          submitPaymentForm(await createPaymentOrder(amount, method));
        } catch (error) {
          void message.error(errorText(error));
          throw error;
        }
      },
    });
  };

  const price = (): ReactNode => {
    if (!enabled) return '-';
    if (!amountAllowed(amount, min))
      return <Typography.Text type="danger">{t('wallet.belowMinimum', { min })}</Typography.Text>;
    if (settled !== amount || quote.isPending) {
      return <Typography.Text type="secondary">{t('wallet.priceLoading')}</Typography.Text>;
    }
    if (quote.isError) return <Typography.Text type="danger">{errorText(quote.error)}</Typography.Text>;
    return t('wallet.priceValue', { money: quote.data });
  };

  return (
    <Card title={t('wallet.onlineTitle')} style={{ height: '100%' }}>
      {!enabled && (
        <Alert type="info" showIcon title={t('msg.onlineTopupDisabled')} style={{ marginBottom: 16 }} />
      )}
      <Form layout="vertical" component="div">
        <Form.Item
          label={status.display_in_currency ? t('wallet.amount') : t('wallet.amountQuota')}
          htmlFor="topup-amount"
          extra={t('wallet.minimum', { min })}
        >
          <InputNumber<number>
            id="topup-amount"
            value={amount}
            min={1}
            precision={0}
            disabled={!enabled}
            onChange={(value) => setEntered(normaliseAmount(value))}
            style={{ width: '100%' }}
          />
        </Form.Item>
        <Form.Item label={t('wallet.price')}>
          <span aria-live="polite" data-testid="topup-price">
            {price()}
          </span>
        </Form.Item>
      </Form>
      <Flex gap={8} wrap>
        <Button icon={<AlipayOutlined />} disabled={!enabled} onClick={() => void pay('zfb')}>
          {t('wallet.alipay')}
        </Button>
        <Button icon={<WechatOutlined />} disabled={!enabled} onClick={() => void pay('wx')}>
          {t('wallet.wechat')}
        </Button>
      </Flex>
    </Card>
  );
}
