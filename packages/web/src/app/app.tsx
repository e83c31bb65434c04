// The console: providers around the router built from every feature's routes.
import { RouterProvider } from 'react-router';
import { Providers, createQueryClient } from './providers';
import { routeModules } from './route-modules';
import { createRouter } from './router';

const queryClient = createQueryClient();
const router = createRouter(routeModules);

export function App() {
  return (
    <Providers queryClient={queryClient}>
      <RouterProvider router={router} />
    </Providers>
  );
}
