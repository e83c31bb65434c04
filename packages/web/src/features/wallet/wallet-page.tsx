// /topup: the wallet. Balance and redeeming a code on one side, online top-up on the other.
import { Col, Row, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { OnlineTopupCard } from './online-topup-card';
import { RedeemCard } from './redeem-card';

export function WalletPage() {
  const { t } = useTranslation();
  return (
    <>
      <Typography.Title level={1} style={{ fontSize: 20, marginTop: 0 }}>
        {t('wallet.title')}
      </Typography.Title>
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={12}>
          <RedeemCard />
        </Col>
        <Col xs={24} lg={12}>
          <OnlineTopupCard />
        </Col>
      </Row>
    </>
  );
}
