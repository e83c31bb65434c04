// The balance and the redemption-code form; the top-up link (where codes are sold) sits beside it.
import { GiftOutlined, ShoppingOutlined } from '@ant-design/icons';
import { Button, Card, Flex, Input, Skeleton, Statistic, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFeedback } from '../../components/feedback';
import { useFormatQuota } from '../../components/quota';
import { ApiError, translateServerMessage } from '../../lib/api';
import { useStatus } from '../../lib/status';
import { redeemCode, selfQueryKey, useSelf } from './api';

export function RedeemCard() {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const formatQuota = useFormatQuota();
  const status = useStatus();
  const self = useSelf();
  const queryClient = useQueryClient();
  const [code, setCode] = useState('');
  const [redeeming, setRedeeming] = useState(false);

  const redeem = async () => {
    const key = code.trim();
    if (key === '') {
      void message.warning(t('msg.enterRedemptionCode'));
      return;
    }
    setRedeeming(true);
    try {
      const gained = await redeemCode(key);
      void message.success(t('wallet.redeemed', { quota: formatQuota(gained) }));
      setCode('');
      await queryClient.invalidateQueries({ queryKey: selfQueryKey });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      // 401 has already sent the user to the login page.
      if (error.status === 0) void message.error(t('wallet.requestFailed'));
      else if (error.status !== 401) void message.error(translateServerMessage(error.message));
    } finally {
      setRedeeming(false);
    }
  };

  const openTopUpLink = () => {
    if (status.top_up_link) window.open(status.top_up_link, '_blank', 'noopener,noreferrer');
    else void message.error(t('msg.topupLinkNotSet'));
  };

  return (
    <Card title={t('wallet.redeemTitle')} style={{ height: '100%' }}>
      {self.data ? (
        <Statistic title={t('wallet.balance')} value={formatQuota(self.data.quota)} />
      ) : (
        <Skeleton active paragraph={false} title={{ width: 160 }} />
      )}
      <Typography.Paragraph type="secondary" style={{ marginTop: 16 }}>
        {t('wallet.redeemHint')}
      </Typography.Paragraph>
      <Flex gap={8} wrap>
        <Input
          aria-label={t('wallet.code')}
          placeholder={t('wallet.codePlaceholder')}
          value={code}
          allowClear
          onChange={(e) => setCode(e.target.value)}
          onPressEnter={() => void redeem()}
          style={{ flex: '1 1 220px' }}
        />
        <Button type="primary" icon={<GiftOutlined />} loading={redeeming} onClick={() => void redeem()}>
          {t('wallet.redeem')}
        </Button>
      </Flex>
      <Button icon={<ShoppingOutlined />} onClick={openTopUpLink} style={{ marginTop: 12 }}>
        {t('wallet.buyCode')}
      </Button>
    </Card>
  );
}
