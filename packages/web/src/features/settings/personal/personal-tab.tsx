// The personal tab: profile, models, invite, bindings, quota warning settings and account actions.
import { Col, Result, Row, Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';
import { AccountCard } from './account-card';
import { useSelf } from './api';
import { BindingsCard } from './bindings-card';
import { InviteCard } from './invite-card';
import { ModelsCard } from './models-card';
import { NotificationCard } from './notification-card';
import { UserCard } from './user-card';

export function PersonalTab() {
  const { t } = useTranslation();
  const self = useSelf();
  if (self.isPending) return <Skeleton active paragraph={{ rows: 6 }} />;
  if (!self.data) return <Result status="warning" title={t('common.loadFailed')} />;
  const user = self.data;
  return (
    <Row gutter={[16, 16]}>
      <Col span={24}>
        <UserCard user={user} />
      </Col>
      <Col xs={24} xl={12}>
        <ModelsCard />
      </Col>
      <Col xs={24} xl={12}>
        <InviteCard user={user} />
      </Col>
      <Col xs={24} xl={12}>
        <BindingsCard user={user} />
      </Col>
      <Col xs={24} xl={12}>
        <AccountCard user={user} />
      </Col>
      <Col xs={24} xl={12}>
        <NotificationCard user={user} />
      </Col>
    </Row>
  );
}
