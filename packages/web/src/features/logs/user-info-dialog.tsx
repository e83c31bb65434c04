// What an admin sees on clicking a log row's user: who it is and how much they hold and used.
import { Descriptions, Modal, Spin, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormatQuota } from '../../components/quota';
import { useUserInfo } from './api';

export function UserInfoDialog({ userId, onClose }: { userId: number | null; onClose(): void }) {
  const { t } = useTranslation();
  const formatQuota = useFormatQuota();
  // The last user shown stays while the dialog closes, so it does not flash a spinner.
  const [shownId, setShownId] = useState(userId);
  if (userId !== null && userId !== shownId) setShownId(userId);
  const user = useUserInfo(shownId);
  const data = user.data;
  let body;
  if (user.isError) body = <Typography.Text type="danger">{t('logs.userInfo.failed')}</Typography.Text>;
  else if (!data) body = <Spin />;
  else
    body = (
      <Descriptions
        column={1}
        size="small"
        bordered
        items={[
          { key: 'username', label: t('logs.userInfo.username'), children: data.username },
          { key: 'quota', label: t('logs.userInfo.quota'), children: formatQuota(data.quota) },
          { key: 'used', label: t('logs.userInfo.usedQuota'), children: formatQuota(data.used_quota) },
          { key: 'requests', label: t('logs.userInfo.requestCount'), children: data.request_count },
          { key: 'group', label: t('logs.userInfo.group'), children: data.group },
        ]}
      />
    );
  return (
    <Modal
      open={userId !== null}
      title={t('logs.userInfo.title')}
      onCancel={onClose}
      footer={null}
      destroyOnHidden
    >
      {body}
    </Modal>
  );
}
