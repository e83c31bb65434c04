// The signed-in user's menu in the top bar: personal settings and log out.
import { DownOutlined, LogoutOutlined, SettingOutlined, UserOutlined } from '@ant-design/icons';
import { Avatar, Button, Dropdown, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useLogout } from '../../features/auth/api';
import type { SessionUser } from '../../lib/session';

export function UserMenu({ user, compact }: { user: SessionUser; compact: boolean }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const navigate = useNavigate();
  const logout = useLogout();
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        items: [
          { key: 'setting', icon: <SettingOutlined />, label: t('nav.personalSettings') },
          { type: 'divider' },
          { key: 'logout', icon: <LogoutOutlined />, label: t('nav.logout') },
        ],
        onClick: ({ key }) => {
          if (key === 'logout') void logout().then(() => navigate('/login'));
          else void navigate('/setting?tab=personal');
        },
      }}
    >
      <Button type="text" aria-label={t('nav.userMenu')} style={{ paddingInline: 6 }}>
        <Avatar size="small" icon={<UserOutlined />} style={{ backgroundColor: token.colorPrimary }} />
        {!compact && <span>{user.display_name || user.username}</span>}
        <DownOutlined style={{ fontSize: 10 }} />
      </Button>
    </Dropdown>
  );
}
