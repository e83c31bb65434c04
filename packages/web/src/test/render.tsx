// Renders a page the way the console does (providers, router, toasts and dialogs) for tests.
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { Outlet, RouterProvider, createMemoryRouter } from 'react-router';
import { Providers, createQueryClient } from '../app/providers';
import { FeedbackProvider } from '../components/feedback';
// The console loads antd's Chinese texts only when the language is Chinese (app/providers.tsx). In tests
// they are loaded up front: a test that switches to Chinese could otherwise end while that import is
// still running, and it would then fail after the test environment is gone.
import 'antd/es/locale/zh_CN';

export function renderPage(
  page: ReactElement,
  { path = '/', url = path }: { path?: string; url?: string } = {},
) {
  const router = createMemoryRouter(
    [
      {
        element: (
          <FeedbackProvider>
            <Outlet />
          </FeedbackProvider>
        ),
        children: [
          { path, element: page },
          { path: '*', element: <p>elsewhere</p> },
        ],
      },
    ],
    { initialEntries: [url] },
  );
  const view = render(
    <Providers queryClient={createQueryClient()}>
      <RouterProvider router={router} />
    </Providers>,
  );
  return { ...view, router };
}
