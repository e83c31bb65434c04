// /setting: the tabs this user may see; ?tab= picks one (personal by default).
import { Tabs } from 'antd';
import { Suspense, lazy, useMemo } from 'react';
import type { ComponentType, LazyExoticComponent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { PageLoading } from '../../app/page-loading';
import { useUser, userIsRoot } from '../../lib/session';
import { DEFAULT_SETTINGS_TAB, settingsTabs } from './tabs';
import type { SettingsTab } from './tabs';

const lazyTabs = new Map<string, LazyExoticComponent<ComponentType>>();
function tabComponent(tab: SettingsTab): LazyExoticComponent<ComponentType> {
  let component = lazyTabs.get(tab.key);
  if (!component) {
    component = lazy(async () => ({ default: await tab.load() }));
    lazyTabs.set(tab.key, component);
  }
  return component;
}

export function SettingsPage() {
  const { t } = useTranslation();
  const user = useUser();
  const [params, setParams] = useSearchParams();
  const root = userIsRoot(user);
  const visible = useMemo(() => settingsTabs.filter((tab) => tab.access === 'user' || root), [root]);
  const requested = params.get('tab');
  const active = visible.some((tab) => tab.key === requested) ? (requested as string) : DEFAULT_SETTINGS_TAB;

  return (
    <Tabs
      activeKey={active}
      onChange={(key) => setParams({ tab: key })}
      destroyOnHidden
      items={visible.map((tab) => {
        const Component = tabComponent(tab);
        return {
          key: tab.key,
          label: tab.label(t),
          children: (
            <Suspense fallback={<PageLoading />}>
              <Component />
            </Suspense>
          ),
        };
      })}
    />
  );
}
