// The models this user's group may call; clicking a name copies it.
import { Card, Empty, Flex, Skeleton, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCopy } from '../../../components/copy';
import { useUserModels } from './api';

export function ModelsCard() {
  const { t } = useTranslation();
  const models = useUserModels();
  const copy = useCopy();
  return (
    <Card title={t('personal.modelsTitle')} style={{ height: '100%' }}>
      <Typography.Paragraph type="secondary">{t('personal.modelsHint')}</Typography.Paragraph>
      {models.isPending ? (
        <Skeleton active />
      ) : models.data && models.data.length > 0 ? (
        <Flex wrap gap={6} style={{ maxHeight: 260, overflowY: 'auto' }}>
          {models.data.map((name) => (
            <Tag
              key={name}
              style={{ cursor: 'pointer', marginInlineEnd: 0 }}
              onClick={() => void copy(name, t('copy.copiedValue', { value: name }))}
            >
              {name}
            </Tag>
          ))}
        </Flex>
      ) : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('personal.noModels')} />
      )}
    </Card>
  );
}
