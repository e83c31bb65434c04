// Who the user is and what they have: name, role badge, ID, group, balance, spend, requests.
import { UserOutlined } from '@ant-design/icons';
import { Avatar, Card, Col, Flex, Row, Statistic, Tag, Typography } from 'antd';
import { isRoot } from '@sluice/shared';
import type { PublicUser } from '@sluice/shared';
import { useTranslation } from 'react-i18next';
import { useFormatQuota } from '../../../components/quota';

export function UserCard({ user }: { user: PublicUser }) {
  const { t } = useTranslation();
  const formatQuota = useFormatQuota();
  return (
    <Card>
      <Flex gap={16} align="center" wrap style={{ marginBottom: 16 }}>
        <Avatar size={56} icon={<UserOutlined />} />
        <div style={{ minWidth: 0 }}>
          <Flex gap={8} align="center" wrap>
            <Typography.Title level={4} style={{ margin: 0 }}>
              {user.display_name || user.username}
            </Typography.Title>
            {isRoot(user.role) && <Tag color="gold">{t('personal.adminBadge')}</Tag>}
          </Flex>
          <Typography.Text type="secondary">
            {t('personal.idLine', { id: user.id, username: user.username })}
          </Typography.Text>
          <div>
            <Tag style={{ marginTop: 4 }}>{t('personal.groupLine', { group: user.group })}</Tag>
          </div>
        </div>
      </Flex>
      <Row gutter={[16, 16]}>
        <Col xs={24} sm={8}>
          <Statistic title={t('personal.balance')} value={formatQuota(user.quota)} />
        </Col>
        <Col xs={12} sm={8}>
          <Statistic title={t('personal.usedQuota')} value={formatQuota(user.used_quota)} />
        </Col>
        <Col xs={12} sm={8}>
          <Statistic title={t('personal.requestCount')} value={user.request_count} />
        </Col>
      </Row>
    </Card>
  );
}
