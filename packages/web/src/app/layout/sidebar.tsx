// The signed-in user's navigation: a collapsible sider on wide screens, a drawer on phones.
// Loaded only once someone is signed in, so sign-in pages do not carry the menu code.
import { Drawer, Layout, theme } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStatus } from '../../lib/status';
import { SideMenu } from './side-menu';

export function Sidebar({
  isMobile,
  drawerOpen,
  onCloseDrawer,
}: {
  isMobile: boolean;
  drawerOpen: boolean;
  onCloseDrawer(): void;
}) {
  const { token } = theme.useToken();
  const { t } = useTranslation();
  const status = useStatus();
  const [collapsed, setCollapsed] = useState<boolean | null>(null);

  if (isMobile) {
    return (
      <Drawer
        placement="left"
        open={drawerOpen}
        onClose={onCloseDrawer}
        size="min(80vw, 320px)"
        styles={{ body: { padding: 0 } }}
        title={status.system_name}
      >
        <nav aria-label={t('nav.sidebar')}>
          <SideMenu onNavigate={onCloseDrawer} />
        </nav>
      </Drawer>
    );
  }
  return (
    <Layout.Sider
      collapsible
      collapsed={collapsed ?? status.default_collapse_sidebar}
      onCollapse={setCollapsed}
      width={208}
      theme="light"
      style={{
        background: token.colorBgContainer,
        borderInlineEnd: `1px solid ${token.colorBorderSecondary}`,
        // Stays in view while the page scrolls, with the collapse button at the bottom of the screen.
        position: 'sticky',
        top: 56,
        height: 'calc(100vh - 56px)',
        overflowY: 'auto',
      }}
    >
      <nav aria-label={t('nav.sidebar')}>
        <SideMenu />
      </nav>
    </Layout.Sider>
  );
}
