// The browser router: the console layout around every feature's pages, each loaded on demand.
import { createBrowserRouter } from 'react-router';
import type { DataRouter, RouteObject } from 'react-router';
import { loadSections } from '../i18n';
import { AccessGate } from './access-gate';
import { AppLayout } from './layout/app-layout';
import { PageLoading } from './page-loading';
import { RouteError } from './route-error';
import type { AppRoute } from './route-types';

function toRouteObject(route: AppRoute): RouteObject {
  const lazy = async () => {
    // Pages behind sign-in use the feature sections' texts; sign-in pages stay light without them.
    const [Page] = await Promise.all([route.page(), route.access === 'public' ? null : loadSections()]);
    return {
      Component: () => (
        <AccessGate access={route.access}>
          <Page />
        </AccessGate>
      ),
    };
  };
  return route.path === '/' ? { index: true, lazy } : { path: route.path, lazy };
}

export function buildRoutes(modules: AppRoute[][]): RouteObject[] {
  return [
    {
      path: '/',
      element: <AppLayout />,
      errorElement: <RouteError />,
      hydrateFallbackElement: <PageLoading />,
      children: [
        {
          // A failing page keeps the top bar and sidebar around its error message.
          errorElement: <RouteError />,
          children: [
            ...modules.flat().map(toRouteObject),
            {
              path: '*',
              lazy: async () => ({ Component: (await import('./status-pages')).NotFoundPage }),
            },
          ],
        },
      ],
    },
  ];
}

export const createRouter = (modules: AppRoute[][]) => createBrowserRouter(buildRoutes(modules));

/** Resolves once the router has loaded the page's lazy route (routers start right away). */
export function routerReady(router: DataRouter): Promise<void> {
  return new Promise<void>((resolve) => {
    if (router.state.initialized) return resolve();
    const stop = router.subscribe(() => {
      if (!router.state.initialized) return;
      stop();
      resolve();
    });
  });
}
