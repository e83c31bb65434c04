// The super admin's settings tabs: each one is its list of cards over the current option values.
import { Flex, Result, Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';
import { useOptions } from './api';
import type { CardDesc } from './fields';
import { OPERATION_CARDS } from './operation-cards';
import { OTHER_CARDS } from './other-cards';
import { SettingsCard } from './settings-card';
import { SYSTEM_CARDS } from './system-cards';

function CardList({ cards }: { cards: CardDesc[] }) {
  const { t } = useTranslation();
  const options = useOptions();
  if (options.isPending) return <Skeleton active paragraph={{ rows: 8 }} />;
  if (!options.data) return <Result status="warning" title={t('common.loadFailed')} />;
  return (
    <Flex vertical gap={16}>
      {cards.map((card) => (
        <SettingsCard key={card.key} card={card} stored={options.data} />
      ))}
    </Flex>
  );
}

export const OperationTab = () => <CardList cards={OPERATION_CARDS} />;
export const SystemTab = () => <CardList cards={SYSTEM_CARDS} />;
export const OtherTab = () => <CardList cards={OTHER_CARDS} />;
