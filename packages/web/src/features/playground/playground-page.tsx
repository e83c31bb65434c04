// /playground: chat with the models of the user's groups, billed to the user directly. The settings
// sit beside the conversation, or in a drawer on phones.
import { Alert, Card, Drawer, Flex } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useIsMobile } from '../../app/layout/use-is-mobile';
import { useDrawerSize } from '../../components/drawer-size';
import { useUser } from '../../lib/session';
import { defaultModel, useUserGroups, useUserModels } from './api';
import { ChatBox } from './chat-box';
import type { PlaygroundSettings } from './chat-state';
import { SettingsPanel } from './settings-panel';
import { useChat } from './use-chat';

/** Spec part 2 §9: temperature 0, max tokens 0 (no limit); the model is chosen once models load. */
const INITIAL_SETTINGS: PlaygroundSettings = {
  group: '',
  model: '',
  temperature: 0,
  maxTokens: 0,
  systemPrompt: '',
};

export function PlaygroundPage() {
  const { t } = useTranslation();
  const isMobile = useIsMobile();
  const drawerSize = useDrawerSize(360);
  const [searchParams] = useSearchParams();
  const user = useUser();
  const groups = useUserGroups();
  const models = useUserModels();
  const [chosen, setChosen] = useState(INITIAL_SETTINGS);
  const [drawerOpen, setDrawerOpen] = useState(false);

  // Until the user picks, the group is their own and the model the default one.
  const groupList = Object.keys(groups.data ?? {});
  const ownGroup = user?.group ?? '';
  const modelList = models.data ?? [];
  const settings: PlaygroundSettings = {
    ...chosen,
    group: chosen.group || (groupList.includes(ownGroup) ? ownGroup : (groupList[0] ?? ownGroup)),
    model: chosen.model || defaultModel(modelList),
  };
  const chat = useChat(settings);
  const update = (change: Partial<PlaygroundSettings>) => setChosen((prev) => ({ ...prev, ...change }));

  const panel = (
    <SettingsPanel
      settings={settings}
      onChange={update}
      groups={groups.data ?? {}}
      groupsLoading={groups.isPending}
      models={modelList}
      modelsLoading={models.isPending}
    />
  );
  // Top bar (56) and the content padding above and below.
  const height = isMobile ? 'calc(100vh - 80px)' : 'calc(100vh - 104px)';

  return (
    <Flex vertical gap={12}>
      {searchParams.get('expired') === 'true' && (
        <Alert type="warning" showIcon role="alert" title={t('msg.loginExpired')} />
      )}
      <Flex gap={16} align="stretch">
        {!isMobile && (
          <Card
            title={t('playground.settings')}
            style={{ width: 300, flex: 'none', height, overflowY: 'auto', minHeight: 360 }}
          >
            {panel}
          </Card>
        )}
        <div style={{ flex: 1, minWidth: 0 }}>
          <ChatBox
            chat={chat}
            canSend={settings.model !== ''}
            height={height}
            compact={isMobile ? { onOpenSettings: () => setDrawerOpen(true) } : undefined}
          />
        </div>
      </Flex>
      {isMobile && (
        <Drawer
          title={t('playground.settings')}
          open={drawerOpen}
          size={drawerSize}
          onClose={() => setDrawerOpen(false)}
        >
          {panel}
        </Drawer>
      )}
    </Flex>
  );
}
