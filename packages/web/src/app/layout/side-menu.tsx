// The sidebar menu: entries from menu-items.ts with icons and translated labels.
import {
  ApiOutlined,
  AppstoreOutlined,
  AuditOutlined,
  BarChartOutlined,
  CommentOutlined,
  DollarOutlined,
  ExperimentOutlined,
  GiftOutlined,
  KeyOutlined,
  PictureOutlined,
  ProfileOutlined,
  SettingOutlined,
  TeamOutlined,
  WalletOutlined,
} from '@ant-design/icons';
import { Menu } from 'antd';
import type { MenuProps } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { useUser } from '../../lib/session';
import { useStatus } from '../../lib/status';
import { buildMenu, selectedMenuKey } from './menu-items';
import type { MenuEntry, MenuKey } from './menu-items';

const ICONS: Record<MenuKey, ReactNode> = {
  playground: <ExperimentOutlined />,
  pricing: <DollarOutlined />,
  channel: <ApiOutlined />,
  chat: <CommentOutlined />,
  token: <KeyOutlined />,
  redemption: <GiftOutlined />,
  wallet: <WalletOutlined />,
  user: <TeamOutlined />,
  log: <ProfileOutlined />,
  detail: <BarChartOutlined />,
  midjourney: <PictureOutlined />,
  task: <AuditOutlined />,
  setting: <SettingOutlined />,
};

type MenuItem = Required<MenuProps>['items'][number];

export function SideMenu({ onNavigate }: { onNavigate?: () => void }) {
  const { t } = useTranslation();
  const user = useUser();
  const status = useStatus();
  const location = useLocation();
  const navigate = useNavigate();
  const entries = buildMenu(status, user?.role ?? 0);
  const paths = new Map<string, string>();

  const toItem = (entry: MenuEntry): MenuItem => {
    paths.set(entry.key, entry.path);
    const label = entry.label ?? (entry.labelKey ? t(`menu.${entry.labelKey}`) : entry.key);
    const icon = entry.key in ICONS ? ICONS[entry.key as MenuKey] : <AppstoreOutlined />;
    if (entry.children) return { key: entry.key, icon, label, children: entry.children.map(toItem) };
    return { key: entry.key, icon, label };
  };
  const items = entries.map(toItem);
  const selected = selectedMenuKey(entries, location.pathname);

  return (
    <Menu
      mode="inline"
      items={items}
      selectedKeys={selected ? [selected] : []}
      defaultOpenKeys={selected?.startsWith('chat') ? ['chat'] : []}
      style={{ borderInlineEnd: 'none' }}
      onClick={({ key }) => {
        const path = paths.get(key);
        if (path) void navigate(path);
        onNavigate?.();
      }}
    />
  );
}
