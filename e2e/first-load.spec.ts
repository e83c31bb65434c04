/// <reference lib="dom" />
// A cold visit (empty cache) to /login and /token: which files the browser fetches and when the
// page's content shows. The server sends each page with its first paint (docs/first-load.md) once
// it has rendered that variant, so each test first has the server render it, as earlier visitors
// would have. File counts, the first paint being served and taken over in place are asserted;
// timings depend on the machine and are only reported: printed, and written to
// test-results/first-load.json.
// Browser globals below run inside the page (addInitScript, page.evaluate).
import { mkdirSync, writeFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import type { Browser } from '@playwright/test';
import { freshUsername } from './helpers.js';

/** Cold loads per page; the report gives each run and the median. */
const RUNS = 3;

interface Visit {
  path: string;
  /** The page's main heading: the page counts as shown once it is in the document. */
  heading: string;
  language?: 'zh-CN';
  /** The console's cookie with its language and theme, as an earlier visit would have left it. */
  look?: string;
}

/** What the init script records in the page. */
interface Marks {
  heading: number | null;
  lcp: number | null;
  /** When the console's code took over #root (hydrated the first paint, or rendered). */
  consoleStarted: number | null;
  /** The page's first heading element, kept to tell whether the console hydrated it in place. */
  headingElement: Element | null;
  /** The guard hid the first paint (made for other choices than the stored ones), seen once parsed. */
  hiddenWhenParsed: boolean | null;
}

interface FirstLoad {
  /** Script and stylesheet files, in the order the browser asked for them. */
  scripts: string[];
  stylesheets: string[];
  /** Size of the scripts as served (the server sends them uncompressed; see route-size.mjs for gzip). */
  scriptKilobytes: number;
  /** Every request the page made (documents, files, API calls, images). */
  requests: number;
  /** Rounds of script fetches: a script asked for after another one arrived is one round later. */
  scriptRounds: number;
  /** Milliseconds from the start of navigation. */
  htmlArrived: number;
  lastScriptArrived: number;
  domContentLoaded: number;
  firstContentfulPaint: number | null;
  largestContentfulPaint: number | null;
  /** The frame after the page's heading was added to the document. */
  headingShown: number | null;
  /** Files the preload script (packages/web/scripts/first-load-preload.ts) asked for. */
  preloadedByScript: string[];
  /** The page came with its first paint, and it was not hidden as made for other choices. */
  firstPaintShown: boolean;
  /** The heading the browser showed first is still the one on the page: taken over, not rebuilt. */
  hydratedInPlace: boolean;
  consoleStarted: number | null;
  failedRequests: string[];
  errors: string[];
}

const report: Array<{ visit: string; runs: FirstLoad[] }> = [];

async function signedInUser(browser: Browser): Promise<string> {
  const username = freshUsername('fl');
  const api = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  try {
    const register = await api.request.post('/api/user/register', {
      data: { username, password: 'e2e-password-9', password2: 'e2e-password-9' },
    });
    expect(((await register.json()) as { success: boolean }).success).toBe(true);
    return username;
  } finally {
    await api.close();
  }
}

async function coldLoad(browser: Browser, visit: Visit, username?: string): Promise<FirstLoad> {
  // A new context has an empty cache, cookies and storage: a first visit.
  const context = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  try {
    if (username) {
      const res = await context.request.post('/api/user/login', {
        data: { username, password: 'e2e-password-9' },
      });
      const body = (await res.json()) as { success: boolean; data: unknown };
      expect(body.success).toBe(true);
      // What the login screen stores, so the console starts signed in.
      await context.addInitScript((user) => localStorage.setItem('user', user), JSON.stringify(body.data));
    }
    if (visit.language) {
      await context.addInitScript((code) => localStorage.setItem('language', code), visit.language);
    }
    if (visit.look) await context.addCookies([lookCookie(visit.look)]);
    await context.addInitScript((heading) => {
      const marks: Marks = {
        heading: null,
        lcp: null,
        consoleStarted: null,
        headingElement: null,
        hiddenWhenParsed: null,
      };
      Object.assign(window, { firstLoadMarks: marks });
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) marks.lcp = entry.startTime;
      }).observe({ type: 'largest-contentful-paint', buffered: true });
      const watcher = new MutationObserver(() => {
        const found = [...document.querySelectorAll('h1, h2, h3')].find(
          (h) => h.textContent?.trim() === heading,
        );
        if (!found) return;
        watcher.disconnect();
        marks.headingElement = found;
        requestAnimationFrame(() => (marks.heading = performance.now()));
      });
      watcher.observe(document, { childList: true, subtree: true, characterData: true });
      // Parsed, before the console's scripts run.
      document.addEventListener('readystatechange', () => {
        if (document.readyState !== 'interactive') return;
        marks.hiddenWhenParsed = document.documentElement.classList.contains('first-paint-stale');
      });
      // React marks its root element when the console starts.
      const started = () => {
        const root = document.getElementById('root');
        if (root && Object.keys(root).some((key) => key.startsWith('__reactContainer'))) {
          marks.consoleStarted = performance.now();
        } else requestAnimationFrame(started);
      };
      requestAnimationFrame(started);
    }, visit.heading);

    const page = await context.newPage();
    const errors: string[] = [];
    const failedRequests: string[] = [];
    let requests = 0;
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('request', () => requests++);
    page.on('requestfailed', (request) => failedRequests.push(request.url()));
    page.on('response', (response) => {
      if (response.status() >= 400) failedRequests.push(`${response.status()} ${response.url()}`);
    });

    const served = await page.goto(visit.path);
    const firstPaintServed = ((await served?.text()) ?? '').includes('data-first-paint=');
    await expect(page.getByRole('heading', { name: visit.heading, exact: true })).toBeVisible();
    const marksOf = () =>
      page.evaluate(() => (window as unknown as { firstLoadMarks: Marks }).firstLoadMarks);
    await expect.poll(async () => (await marksOf()).heading).not.toBeNull();
    // The page may still be fetching its data; let it settle so every request is counted.
    await page.waitForLoadState('networkidle');

    const measured = await page.evaluate(() => {
      const path = (url: string) => new URL(url, location.href).pathname;
      const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
      const files = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
      const scripts = files.filter((entry) => path(entry.name).endsWith('.js'));
      const roundOf = new Map<PerformanceResourceTiming, number>();
      for (const script of [...scripts].sort((a, b) => a.startTime - b.startTime)) {
        const before = scripts.filter((other) => roundOf.has(other) && other.responseEnd <= script.startTime);
        roundOf.set(script, 1 + Math.max(0, ...before.map((other) => roundOf.get(other) ?? 0)));
      }
      const marks = (window as unknown as { firstLoadMarks: Marks }).firstLoadMarks;
      return {
        scripts: scripts.map((entry) => path(entry.name)),
        stylesheets: files
          .filter((entry) => path(entry.name).endsWith('.css'))
          .map((entry) => path(entry.name)),
        scriptKilobytes: Math.round(
          scripts.reduce((total, entry) => total + entry.decodedBodySize, 0) / 1024,
        ),
        scriptRounds: Math.max(0, ...roundOf.values()),
        htmlArrived: navigation.responseEnd,
        lastScriptArrived: Math.max(0, ...scripts.map((entry) => entry.responseEnd)),
        domContentLoaded: navigation.domContentLoadedEventEnd,
        firstContentfulPaint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null,
        largestContentfulPaint: marks.lcp,
        headingShown: marks.heading,
        preloadedByScript: [...document.querySelectorAll<HTMLLinkElement>('link[data-first-load]')].map(
          (link) => path(link.href),
        ),
        hydratedInPlace: marks.headingElement !== null && marks.headingElement.isConnected,
        hiddenWhenParsed: marks.hiddenWhenParsed === true,
        consoleStarted: marks.consoleStarted,
      };
    });
    const { hiddenWhenParsed, ...rest } = measured;
    return {
      ...rest,
      firstPaintShown: firstPaintServed && !hiddenWhenParsed,
      requests,
      failedRequests,
      errors,
    };
  } finally {
    await context.close();
  }
}

const lookCookie = (value: string) => ({
  name: 'ui',
  value,
  url: test.info().project.use.baseURL ?? '',
});

/**
 * Has the server render the page's first paint for this variant, as an earlier visitor's load does:
 * until then the page is sent as built. Anonymous requests with the same cookies as the visit.
 */
async function renderFirstPaint(browser: Browser, visit: Visit, username?: string): Promise<void> {
  const context = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  try {
    if (username) {
      await context.request.post('/api/user/login', { data: { username, password: 'e2e-password-9' } });
    }
    if (visit.look) await context.addCookies([lookCookie(visit.look)]);
    await expect
      .poll(async () => (await (await context.request.get(visit.path)).text()).includes('data-first-paint='))
      .toBe(true);
  } finally {
    await context.close();
  }
}

const median = (values: Array<number | null>): string => {
  const known = values.filter((value): value is number => value !== null).sort((a, b) => a - b);
  const middle = known[Math.floor(known.length / 2)];
  return middle === undefined ? '-' : `${Math.round(middle)} ms`;
};

function record(name: string, runs: FirstLoad[]): void {
  report.push({ visit: name, runs });
  const first = runs[0];
  if (!first) return;
  const line = [
    `first load ${name}:`,
    `first paint ${runs.every((r) => r.firstPaintShown) ? 'shown' : 'not shown'}${runs.every((r) => r.firstPaintShown && r.hydratedInPlace) ? ' and hydrated' : ''};`,
    `${first.scripts.length} scripts (${first.scriptKilobytes} kB), ${first.stylesheets.length} stylesheets,`,
    `${first.requests} requests,`,
    `${first.scriptRounds} script rounds;`,
    `median of ${runs.length}: html ${median(runs.map((r) => r.htmlArrived))},`,
    `scripts in ${median(runs.map((r) => r.lastScriptArrived))},`,
    `DOMContentLoaded ${median(runs.map((r) => r.domContentLoaded))},`,
    `first contentful paint ${median(runs.map((r) => r.firstContentfulPaint))},`,
    `heading shown ${median(runs.map((r) => r.headingShown))},`,
    `console started ${median(runs.map((r) => r.consoleStarted))},`,
    `largest contentful paint ${median(runs.map((r) => r.largestContentfulPaint))}`,
  ].join(' ');
  process.stdout.write(`${line}\n`);
  test.info().annotations.push({ type: 'first load', description: line });
}

test.afterAll(() => {
  mkdirSync('test-results', { recursive: true });
  writeFileSync('test-results/first-load.json', `${JSON.stringify(report, null, 2)}\n`);
});

/** A chunk's name without folder and hash, e.g. `tokens-page` for /assets/tokens-page-Dwv_bCBp.js. */
const chunkName = (file: string): string => file.replace(/^\/assets\//, '').replace(/-[\w-]{8}\.js$/, '');

/** Chunks only pages behind sign-in (or Chinese readers) need: see packages/web/scripts/chunk-groups.ts. */
const CONSOLE_CHUNKS = ['account', 'antd', 'console', 'zh-cn'];
const consoleChunksIn = (files: string[]): string[] =>
  files.map(chunkName).filter((name) => CONSOLE_CHUNKS.includes(name));

const expectCleanLoad = (load: FirstLoad) => {
  expect(load.failedRequests).toEqual([]);
  expect(load.errors).toEqual([]);
  // Each file once: the preloads and the router's own imports share one fetch.
  expect(new Set(load.scripts).size).toBe(load.scripts.length);
};

test('a cold /login fetches a handful of scripts and none of the console', async ({ browser }) => {
  test.setTimeout(90_000);
  const visit = { path: '/login', heading: 'Log in' };
  await renderFirstPaint(browser, visit);
  const runs: FirstLoad[] = [];
  for (let run = 0; run < RUNS; run++) runs.push(await coldLoad(browser, visit));
  record('/login', runs);
  for (const load of runs) {
    expectCleanLoad(load);
    expect(load.firstPaintShown).toBe(true);
    expect(load.hydratedInPlace).toBe(true);
    expect(load.scripts.length).toBeLessThanOrEqual(6);
    expect(load.stylesheets.length).toBeLessThanOrEqual(1);
    expect(consoleChunksIn(load.scripts)).toEqual([]);
  }
});

test('a cold /token for a signed-in user fetches the page with the frame, not after it', async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const username = await signedInUser(browser);
  const visit = { path: '/token', heading: 'My tokens' };
  await renderFirstPaint(browser, visit, username);
  const runs: FirstLoad[] = [];
  for (let run = 0; run < RUNS; run++) runs.push(await coldLoad(browser, visit, username));
  record('/token (signed in)', runs);
  for (const load of runs) {
    expectCleanLoad(load);
    expect(load.firstPaintShown).toBe(true);
    expect(load.hydratedInPlace).toBe(true);
    expect(load.scripts.length).toBeLessThanOrEqual(12);
    // index.html's preload script asked for the page's chunks before the router could.
    expect(load.preloadedByScript.map(chunkName)).toEqual(
      expect.arrayContaining(['tokens-page', 'account', 'antd', 'console']),
    );
  }
});

test('a cold /login in Chinese adds only the Chinese texts', async ({ browser }) => {
  test.setTimeout(60_000);
  const visit = { path: '/login', heading: '登录', language: 'zh-CN', look: 'zh-CN.light' } as const;
  await renderFirstPaint(browser, visit);
  const load = await coldLoad(browser, visit);
  record('/login (Chinese)', [load]);
  expectCleanLoad(load);
  expect(load.firstPaintShown).toBe(true);
  expect(load.hydratedInPlace).toBe(true);
  expect(consoleChunksIn(load.scripts)).toEqual(['zh-cn']);
  expect(load.preloadedByScript.map(chunkName)).toEqual(['zh-cn']);
  expect(load.scripts.length).toBeLessThanOrEqual(7);
});

test('a first paint made for other choices than the stored ones stays hidden and the console draws the page', async ({
  browser,
}) => {
  test.setTimeout(60_000);
  // Chinese stored, but the cookie (say, cleared since) asks the server for English.
  const english = { path: '/login', heading: 'Log in' };
  await renderFirstPaint(browser, english);
  const load = await coldLoad(browser, {
    path: '/login',
    heading: '登录',
    language: 'zh-CN',
    look: 'en.light',
  });
  record('/login (Chinese stored, English cookie)', [load]);
  expectCleanLoad(load);
  expect(load.firstPaintShown).toBe(false);
  expect(load.headingShown).not.toBeNull();
});

test('a visitor who types and clicks before the console has taken the first paint over is signed in', async ({
  browser,
}) => {
  test.setTimeout(60_000);
  const username = await signedInUser(browser);
  await renderFirstPaint(browser, { path: '/login', heading: 'Log in' });
  const context = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  try {
    // A slow network: the console's scripts take a second and a half to arrive.
    await context.route('**/assets/*.js', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await route.continue();
    });
    // Whether the console had taken the page over when each key reached the field.
    await context.addInitScript(() => {
      const typed: boolean[] = [];
      Object.assign(window, { typedBeforeConsole: typed });
      document.addEventListener(
        'input',
        (event) => {
          // The visitor's keys only, not the console telling React about them afterwards.
          if (event.isTrusted) typed.push(document.documentElement.classList.contains('first-paint-pending'));
        },
        true,
      );
    });
    const page = await context.newPage();
    const served = await page.goto('/login', { waitUntil: 'commit' });
    expect(await served?.text()).toContain('data-first-paint=');
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password').fill('e2e-password-9');
    // The button takes clicks once the console runs (a click before then would be lost).
    await page.getByRole('button', { name: 'Log in', exact: true }).last().click();
    await expect(page).toHaveURL(/\/token$/);
    await expect(page.getByRole('heading', { name: 'My tokens' })).toBeVisible();
    const typed = await page.evaluate(
      () => (window as unknown as { typedBeforeConsole: boolean[] }).typedBeforeConsole,
    );
    expect(typed).toEqual([true, true]);
  } finally {
    await context.close();
  }
});
