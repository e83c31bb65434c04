// Renders a page the way the console does (providers, router, toasts and dialogs) for tests.
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { Outlet, RouterProvider, createMemoryRouter } from 'react-router';
import { Providers, createQueryClient } from '../app/providers';
import { FeedbackProvider } from '../components/feedback';

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
