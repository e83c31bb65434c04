// How the console's JavaScript is split into chunks (rolldown's `output.codeSplitting.groups`).
// Left to itself the bundler cuts antd's per-component modules into one chunk per set of pages
// that shares them: ~110 small files that a cold load fetches in a waterfall. The groups below keep
// a first load to a handful of files without making the sign-in pages carry the console:
//
//   vendor   libraries the frame needs on every page (React, router, query, i18next, antd's core)
//   shell    the frame: providers, router, layout, API client, English texts
//   sign-in  the login, home and about pages and the toast host, with what they add
//   account  the register, reset and OAuth pages and the dialogs a visitor can meet, with what they
//            add (forms, validation); console pages share these pieces too
//   zh-cn    the Chinese texts and antd's Chinese locale (console pages import it too, see below)
//   antd     antd components that two or more console pages use (tables, pickers, selects, menus…)
//   console  code that signed-in pages share, every feature's texts, the sidebar and the user menu
//
// The rest is chunked automatically: one chunk per page (with what only that page uses), the charts
// with the pages that chart, Markdown where it is rendered.
//
// A group also takes the dependencies of what it captures unless an earlier group (higher priority)
// has them. That is why `vendor` and `shell` come first (the sign-in group would otherwise take the
// frame's modules) and why everything a visitor can load lazily is named in `sign-in` or `account`:
// anything left over would land in `antd` and cost a visitor the console's components.
import type { Rolldown } from 'vite';

type ChunkingContext = Rolldown.ChunkingContext;
type CodeSplittingGroup = Rolldown.CodeSplittingGroup;

/** Module ids with forward slashes, so one set of patterns works on every platform. */
const normalise = (id: string): string => id.replace(/\\/g, '/');

const inNodeModules = (id: string): boolean => normalise(id).includes('/node_modules/');

const WEB_SOURCE = '/packages/web/src/';
const SHARED_SOURCE = '/packages/shared/src/';

/** The console's own code and the shared package it compiles in. */
function isAppModule(id: string): boolean {
  const path = normalise(id);
  return !path.includes('/node_modules/') && (path.includes(WEB_SOURCE) || path.includes(SHARED_SOURCE));
}

/** Path inside packages/web/src without its extension, e.g. `features/auth/login-page`. */
function webSourcePath(id: string): string | undefined {
  const path = normalise(id);
  const at = path.indexOf(WEB_SOURCE);
  if (at < 0 || path.includes('/node_modules/')) return undefined;
  return path.slice(at + WEB_SOURCE.length).replace(/\.tsx?$/, '');
}

const sourceFiles =
  (paths: readonly string[]) =>
  (id: string): boolean =>
    paths.includes(webSourcePath(id) ?? '');

/** What a visitor opens first, and the toast host every page mounts. */
const SIGN_IN_MODULES = [
  'features/auth/login-page',
  'features/home/home-page',
  'features/home/about-page',
  'components/message-host',
] as const;

/** The other pages and lazily loaded parts a visitor can reach before signing in. */
const ACCOUNT_MODULES = [
  'features/auth/register-page',
  'features/auth/reset-page',
  'features/auth/reset-confirm-page',
  'features/auth/oauth-callback-page',
  'features/auth/components/wechat-code-modal',
  'components/dialogs',
  'app/status-pages',
] as const;

/** Signed-in users only, and on every page: the features' texts, the sidebar and the user menu. */
const SIGNED_IN_FRAME = /^(features\/.+\/i18n|app\/layout\/(sidebar|user-menu))$/;

/** Helpers heavy enough to load only where something is rendered with them. */
const ON_DEMAND_HELPERS = ['lib/markdown', 'lib/sanitize'];

/** Folders of code written to be shared; a feature's own folder holds its pages' code. */
const SHARED_FOLDERS = /^(components|lib|app)\//;

// antd and the packages it is built from. A new dependency of antd that is missing here is still
// bundled, only in an automatically made chunk (one more request, nothing breaks).
const ANTD_FAMILY =
  /\/node_modules\/(antd|@ant-design\/[^/]+|@rc-component\/[^/]+|dayjs|@emotion\/[^/]+|stylis|clsx|@babel\/runtime|is-mobile|throttle-debounce|scroll-into-view-if-needed|compute-scroll-into-view)\//;
const isAntdFamily = (id: string): boolean => ANTD_FAMILY.test(normalise(id));

const CHINESE = /(\/packages\/web\/src\/i18n\/zh-cn\.ts|\/node_modules\/antd\/es\/locale\/zh_CN\.js)$/;

/** The entry's own helper; in `shell` it leaves the entry chunk empty, so Vite inlines its imports. */
const isEntryHelper = (id: string): boolean => id.includes('vite/modulepreload-polyfill');

const featureOf = (path: string): string | undefined => /^features\/([^/]+)\//.exec(path)?.[1];

/**
 * `console`: code written to be shared (components, lib, app, packages/shared) and a feature's code
 * that another feature imports. A module loaded on demand (a dynamic import) keeps its own chunk, so
 * what a page opens later is not fetched with every page.
 */
function consoleChunk(id: string, context: ChunkingContext): string | null {
  const path = webSourcePath(id);
  if (path !== undefined && SIGNED_IN_FRAME.test(path)) return 'console';
  if (!isAppModule(id) || (path !== undefined && ON_DEMAND_HELPERS.includes(path))) return null;
  const info = context.getModuleInfo(id);
  if (!info || info.dynamicImporters.length > 0) return null;
  if (path === undefined || SHARED_FOLDERS.test(path)) return 'console'; // undefined: packages/shared
  const feature = featureOf(path);
  const sharedWithAnotherFeature = info.importers.some((importer) => {
    const importerPath = webSourcePath(importer);
    return importerPath !== undefined && featureOf(importerPath) !== feature;
  });
  return sharedWithAnotherFeature ? 'console' : null;
}

export const CHUNK_GROUPS: CodeSplittingGroup[] = [
  { name: 'vendor', test: inNodeModules, tags: ['$initial'], priority: 70 },
  { name: 'shell', test: (id) => isAppModule(id) || isEntryHelper(id), tags: ['$initial'], priority: 60 },
  { name: 'sign-in', test: sourceFiles(SIGN_IN_MODULES), priority: 50 },
  { name: 'account', test: sourceFiles(ACCOUNT_MODULES), priority: 40 },
  // Before `antd`, which then imports it: rc-pagination's built-in default locale is the Chinese
  // one. The other way round, the Chinese texts would bring the console's components to /login.
  { name: 'zh-cn', test: (id) => CHINESE.test(normalise(id)), priority: 30 },
  { name: 'antd', test: isAntdFamily, minShareCount: 2, priority: 20 },
  { name: consoleChunk, debugName: 'console', priority: 10 },
];

/** Chunks a cold load fetches before the router asks for them (scripts/first-load-preload.ts adds
 *  the current page's own chunks, read from the route table). */
export const PRELOADED_CHUNKS = {
  /** Every page: the sign-in chunk also holds the inputs and buttons console pages use. */
  everyVisit: ['sign-in'],
  /** Every page once signed in: the sidebar, the user menu and the texts are in `console`. */
  signedIn: ['account', 'antd', 'console'],
  chinese: ['zh-cn'],
};
