// A page's first paint as HTML, rendered outside the browser: the server sends it inside index.html
// so a cold load shows the page while its scripts are still on the way (docs/first-load.md). The
// browser's own render then replaces it. Rendered for one address, language, theme, signed-in user
// and the site's current status, with every lazy part loaded, and the antd styles it uses.
import { StyleProvider, createCache, extractStyle } from '@ant-design/cssinjs';
import { prerenderToNodeStream } from 'react-dom/static';
import { StrictMode } from 'react';
import { RouterProvider, createMemoryRouter, matchRoutes } from 'react-router';
import type { RouteObject } from 'react-router';
import { mayOpen } from '../app/access-gate';
import { Providers, createQueryClient } from '../app/providers';
import { routeModules } from '../app/route-modules';
import { buildRoutes, routerReady } from '../app/router';
import type { Access } from '../app/route-types';
import type { ThemeMode } from '../app/theme';
import { changeLanguage } from '../i18n';
import type { LanguageCode } from '../i18n';
import { renderAsUser } from '../lib/session';
import type { SessionUser } from '../lib/session';
import { normaliseStatus, statusQueryKey } from '../lib/status';
import type { SiteStatus } from '../lib/status';

export interface FirstPaintRequest {
  /** The address's path, without query or hash. */
  path: string;
  language: LanguageCode;
  theme: ThemeMode;
  user: SessionUser | null;
  status: SiteStatus;
}

export interface FirstPaint {
  /** The markup that goes inside `#root`. */
  html: string;
  /** The antd styles the markup uses: <style> elements for the head. */
  css: string;
}

const routes = buildRoutes(routeModules);
const pages = routeModules.flat();
const pageRoutes: RouteObject[] = pages.map((page) => ({ path: page.path }));

/** The page at `path` when it takes no parameters, and who may open it. */
function pageAccess(path: string): Access | undefined {
  const matched = matchRoutes(pageRoutes, path)?.at(-1);
  // A page whose address carries a value (an id, a sub-page) is left to the browser.
  if (!matched || Object.values(matched.params).some((value) => value)) return undefined;
  return pages.find((page) => page.path === matched.route.path)?.access;
}

async function toText(stream: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of stream) text += typeof chunk === 'string' ? chunk : (chunk as Buffer).toString();
  return text;
}

/**
 * The page's first paint, or null when it has none to give: a page with parameters, one the user may
 * not open (the browser would go elsewhere), or an address that leads elsewhere.
 */
export async function renderFirstPaint(request: FirstPaintRequest): Promise<FirstPaint | null> {
  const access = pageAccess(request.path);
  if (access === undefined || !mayOpen(access, request.user)) return null;
  await changeLanguage(request.language);
  // The browser's router, in memory: the same components as in the browser, so the page hydrates.
  const router = createMemoryRouter(routes, { initialEntries: [request.path] });
  await routerReady(router);
  if (router.state.location.pathname !== request.path || router.state.errors) return null;
  const queryClient = createQueryClient();
  queryClient.setQueryData(statusQueryKey, normaliseStatus(request.status));
  const cache = createCache();
  const page = (
    <StrictMode>
      <StyleProvider cache={cache}>
        <Providers queryClient={queryClient} themeMode={request.theme}>
          <RouterProvider router={router} />
        </Providers>
      </StyleProvider>
    </StrictMode>
  );
  const html = await renderAsUser(request.user, async () => {
    // In one piece: by default React sends a large part that waited for its code after the rest,
    // put in place by an inline script, which the content security policy blocks.
    const { prelude } = await prerenderToNodeStream(page, { progressiveChunkSize: Number.MAX_SAFE_INTEGER });
    return toText(prelude);
  });
  router.dispose();
  // Anything React still left for a script to finish is not sent: the page would show it unfinished.
  if (html.includes('<script') || html.includes('<template')) return null;
  // As <style> elements antd's cache in the browser recognises and adopts instead of writing again.
  return { html, css: extractStyle(cache) };
}
