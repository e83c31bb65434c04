// The console: providers around the router built from every feature's routes.
import { RouterProvider } from 'react-router';
import { Providers, createQueryClient } from './providers';
import { routeModules } from './route-modules';
import { createRouter, routerReady } from './router';

const queryClient = createQueryClient();
const router = createRouter(routeModules);

/** Resolves once the first page's code has loaded, so a first paint sent by the server can hydrate. */
export const firstPageReady = (): Promise<void> => routerReady(router);

export function App() {
  return (
    <Providers queryClient={queryClient}>
      <RouterProvider router={router} />
    </Providers>
  );
}
