// The console frame: top bar, sidebar (a drawer on phones) for signed-in users, page, footer.
import { Layout } from 'antd';
import { Suspense, lazy, useEffect, useState } from 'react';
import { Outlet, useLocation, useNavigate, useNavigation } from 'react-router';
import { FeedbackProvider } from '../../components/feedback';
import { configureApi } from '../../lib/api';
import { useUser } from '../../lib/session';
import { PageLoading } from '../page-loading';
import { SiteFooter } from './site-footer';
import { TopBar } from './top-bar';
import { useIsMobile } from './use-is-mobile';
import { useSiteBranding } from './use-site-branding';

const Sidebar = lazy(() => import('./sidebar').then((m) => ({ default: m.Sidebar })));
const FirstPasswordDialog = lazy(() =>
  import('../../features/settings/personal/first-password-dialog').then((m) => ({
    default: m.FirstPasswordDialog,
  })),
);

export function AppLayout() {
  const user = useUser();
  const isMobile = useIsMobile();
  const navigate = useNavigate();
  const location = useLocation();
  const navigation = useNavigation();
  const [drawer, setDrawer] = useState<{ open: boolean; path: string }>({ open: false, path: '' });
  // The phone menu closes whenever the page changes (also on back/forward).
  const drawerOpen = drawer.open && drawer.path === location.pathname;
  useSiteBranding();

  useEffect(() => {
    configureApi({ onUnauthorized: () => void navigate('/login?expired=true') });
  }, [navigate]);

  return (
    <FeedbackProvider>
      <Layout style={{ minHeight: '100vh' }}>
        <TopBar
          isMobile={isMobile}
          onOpenMenu={user && isMobile ? () => setDrawer({ open: true, path: location.pathname }) : undefined}
        />
        <Layout hasSider={user !== null && !isMobile}>
          {user && (
            <Suspense fallback={null}>
              <Sidebar
                isMobile={isMobile}
                drawerOpen={drawerOpen}
                onCloseDrawer={() => setDrawer({ open: false, path: '' })}
              />
            </Suspense>
          )}
          <Layout style={{ minWidth: 0 }}>
            <Layout.Content
              style={{ padding: isMobile ? 12 : 24, opacity: navigation.state === 'loading' ? 0.6 : 1 }}
            >
              <Suspense fallback={<PageLoading />}>
                <Outlet />
              </Suspense>
            </Layout.Content>
            <SiteFooter />
          </Layout>
          {user?.password_change_required && (
            <Suspense fallback={null}>
              <FirstPasswordDialog />
            </Suspense>
          )}
        </Layout>
      </Layout>
    </FeedbackProvider>
  );
}
