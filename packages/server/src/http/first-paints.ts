// First paints: a cold load of a console page shows the page before its scripts have run. index.html
// goes out with the page already rendered inside #root (and the antd styles it uses), rendered by the
// console's own code (packages/web/src/first-paint/) in a child process; the console then takes the
// markup over (hydrates) instead of building it again. See docs/first-load.md.
//
// A first paint depends on the page, the language and theme (the `ui` cookie the console keeps), the
// signed-in user's role (from the session) and the site's status; it is rendered once per such
// variant and kept until an option changes. The user's name is written in at serve time. Until a
// variant has been rendered, and for pages that have none, index.html goes out as built.
import { createHash } from 'node:crypto';
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import type { FastifyBaseLogger } from 'fastify';
import { ROLE } from '@sluice/shared';
import type { Look, LoginResult, PublicStatus } from '@sluice/shared';
import { escapeHtml } from '../platform/html.js';

/** What the console shows of the signed-in user in a first paint. */
export interface FirstPaintUser {
  id: number;
  name: string;
  role: number;
}

/** A rendered first paint (packages/web/src/first-paint/render.tsx). */
interface FirstPaint {
  html: string;
  css: string;
}

/** What the renderer renders: the console's FirstPaintRequest. */
interface FirstPaintRequest {
  path: string;
  language: Look['language'];
  theme: Look['theme'];
  /** The signed-in user as the console keeps it after signing in. */
  user: Pick<LoginResult, 'id' | 'username' | 'display_name' | 'role' | 'status' | 'group'> | null;
  status: PublicStatus;
}

type FirstPaintAnswer = { id: number; firstPaint: FirstPaint | null } | { id: number; error: string };

export interface FirstPaints {
  /** A renderer is built and has not failed: only then is the visitor's session worth reading. */
  readonly active: boolean;
  /** index.html for a navigation to `path`: with the page's first paint when one has been rendered. */
  page(path: string, look: Look, user: FirstPaintUser | null): string;
  close(): Promise<void>;
}

export interface FirstPaintsOptions {
  /** The console's index.html as built. */
  indexHtml: string;
  /** The renderer (dist-first-paint/first-paint-renderer.js), or null when the console was built without it. */
  rendererFile: string | null;
  status: () => PublicStatus;
  /** The text of one of the console's stylesheets (`/assets/….css`), inlined into first paints. */
  readStylesheet: (href: string) => string | null;
  /** Subscribes to option changes; first paints rendered before one are dropped. */
  onStatusChange: (listener: () => void) => () => void;
  log: FastifyBaseLogger;
  /** The renderer stops after this long without work (it holds the whole console in memory). */
  idleMs?: number;
  /** Variants kept; the least recently served goes first. */
  maxEntries?: number;
}

/** Stands for the user's name in a first paint; written in, escaped, when the page is served. */
const NAME_MARK = 'firstpaint0user0name';

/**
 * Runs before the first paint is shown. It was made for the language, theme and user named in
 * <html data-first-paint="language.theme.userId.role">; when this browser has stored another choice
 * (the console's storage keys: language, theme-mode, user), it stays hidden until the console
 * renders (packages/web/src/app/global.css), instead of showing the wrong page. Inline, so the page
 * waits for no file before it shows; the content security policy allows it by its hash.
 */
export const GUARD_SCRIPT = [
  '(function(){',
  'var h=document.documentElement,s=h.getAttribute("data-first-paint");if(!s)return;',
  'function r(k){try{return localStorage.getItem(k)}catch(e){return null}}',
  'var l=r("language")==="zh-CN"?"zh-CN":"en",m=r("theme-mode");',
  'if(m!=="light"&&m!=="dark")m=window.matchMedia&&matchMedia("(prefers-color-scheme: dark)").matches?"dark":"light";',
  'var w="0.0";try{var u=JSON.parse(r("user"));',
  'if(u&&typeof u.id==="number"&&typeof u.role==="number")w=u.id+"."+u.role}catch(e){}',
  'if(s!==l+"."+m+"."+w)h.classList.add("first-paint-stale")',
  '})()',
].join('');

/** The guard script's entry for the content security policy's script-src. */
export const GUARD_SCRIPT_HASH = `'sha256-${createHash('sha256').update(GUARD_SCRIPT).digest('base64')}'`;

/** Addresses worth a first paint: plain page paths (the renderer decides which are pages). */
const PAGE_PATH = /^\/[A-Za-z0-9/_-]{0,63}$/;

const roleLevel = (role: number): number =>
  role >= ROLE.root ? ROLE.root : role >= ROLE.admin ? ROLE.admin : ROLE.user;

/** JSON inside a <script> element: nothing in it may close the element or open a comment. */
const jsonForScript = (value: unknown): string =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

/** A page threw while rendering (the renderer itself still works). */
class PageRenderError extends Error {}

/**
 * The process that renders first paints: started on demand, stopped when idle. A process rather than a
 * worker thread: the console it loads takes about 137 MiB, and a thread's memory stays with the server
 * after it ends (the allocator keeps it), a process's goes back to the system.
 */
class Renderer {
  private child: ChildProcess | undefined;
  private nextId = 0;
  private readonly waiting = new Map<
    number,
    { resolve: (firstPaint: FirstPaint | null) => void; reject: (e: Error) => void }
  >();
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly file: string,
    private readonly idleMs: number,
  ) {}

  render(request: FirstPaintRequest): Promise<FirstPaint | null> {
    clearTimeout(this.idleTimer);
    const child = (this.child ??= this.start());
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      child.send({ id, request }, (error) => {
        if (error) this.fail(child, error);
      });
    });
  }

  private start(): ChildProcess {
    // Only the renderer's file runs: none of the server's own node flags or secrets' environment.
    const child = fork(this.file, [], {
      execArgv: [],
      env: { NODE_ENV: 'production' },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    child.on('message', (answer: FirstPaintAnswer) => {
      const waiter = this.waiting.get(answer.id);
      this.waiting.delete(answer.id);
      if ('error' in answer) waiter?.reject(new PageRenderError(answer.error));
      else waiter?.resolve(answer.firstPaint);
      if (this.waiting.size === 0) {
        this.idleTimer = setTimeout(() => void this.stop(), this.idleMs);
        this.idleTimer.unref();
      }
    });
    child.on('error', (error) => this.fail(child, error));
    child.on('exit', (code, signal) =>
      this.fail(child, new Error(`the first-paint renderer exited (${signal ?? code})`)),
    );
    return child;
  }

  private fail(child: ChildProcess, error: Error): void {
    if (this.child === child) this.child = undefined;
    for (const waiter of this.waiting.values()) waiter.reject(error);
    this.waiting.clear();
  }

  async stop(): Promise<void> {
    clearTimeout(this.idleTimer);
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill();
    await exited;
  }
}

/**
 * Rendered variants (null: the page has none), least recently served first. Variants of one page
 * differ in markup but mostly share their styles (about half a megabyte for a console page): one copy
 * of each is kept.
 */
class PaintCache {
  private readonly entries = new Map<string, FirstPaint | null>();
  private readonly styles = new Map<string, { css: string; users: number }>();

  constructor(private readonly maxEntries: number) {}

  has(key: string): boolean {
    return this.entries.has(key);
  }

  /** The variant, now the most recently served. */
  get(key: string): FirstPaint | null | undefined {
    const paint = this.entries.get(key);
    if (paint !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, paint);
    }
    return paint;
  }

  set(key: string, paint: FirstPaint | null): void {
    this.delete(key);
    let kept = paint;
    if (paint) {
      const shared = this.styles.get(paint.css) ?? { css: paint.css, users: 0 };
      shared.users++;
      this.styles.set(paint.css, shared);
      kept = { html: paint.html, css: shared.css };
    }
    this.entries.set(key, kept);
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.maxEntries) break;
      this.delete(oldest);
    }
  }

  clear(): void {
    this.entries.clear();
    this.styles.clear();
  }

  private delete(key: string): void {
    const paint = this.entries.get(key);
    this.entries.delete(key);
    const shared = paint ? this.styles.get(paint.css) : undefined;
    if (paint && shared && --shared.users === 0) this.styles.delete(paint.css);
  }
}

export function createFirstPaints(options: FirstPaintsOptions): FirstPaints {
  const { indexHtml, log } = options;
  const maxEntries = options.maxEntries ?? 64;
  // index.html must have the places a first paint goes; otherwise it is served as built.
  const usable =
    options.rendererFile !== null &&
    /<html[^>]*>/.test(indexHtml) &&
    indexHtml.includes('</head>') &&
    indexHtml.includes('<div id="root"></div>');
  // The console's stylesheet goes inline too: the page then waits for no file before it shows.
  const paintIndex = indexHtml.replace(
    /<link rel="stylesheet"(?: crossorigin)? href="(\/assets\/[\w.-]+\.css)">/g,
    (link, href: string) => {
      const css = options.readStylesheet(href);
      return css === null || css.includes('</') ? link : `<style>${css}</style>`;
    },
  );
  const renderer =
    usable && options.rendererFile ? new Renderer(options.rendererFile, options.idleMs ?? 60_000) : null;
  const cache = new PaintCache(maxEntries);
  const rendering = new Map<string, Promise<void>>();
  let generation = 0;
  let broken = false;

  const stopListening = options.onStatusChange(() => {
    generation++;
    cache.clear();
  });

  function schedule(key: string, request: FirstPaintRequest): void {
    if (!renderer || broken || rendering.has(key)) return;
    const started = generation;
    const job = renderer
      .render(request)
      .then((firstPaint) => {
        if (generation !== started) return;
        cache.set(key, firstPaint);
      })
      .catch((error: unknown) => {
        if (error instanceof PageRenderError) {
          // That page threw while rendering: it goes without a first paint; the others keep theirs.
          if (generation === started) cache.set(key, null);
          log.warn({ err: error, page: request.path }, 'a page has no first paint: it failed to render');
          return;
        }
        // A renderer that cannot run is not retried on every page view; the console works without it.
        broken = true;
        log.error({ err: error }, 'first paints are off: the renderer failed');
      })
      .finally(() => rendering.delete(key));
    rendering.set(key, job);
  }

  function assemble(
    firstPaint: FirstPaint,
    look: Look,
    user: FirstPaintUser | null,
    status: PublicStatus,
  ): string {
    const who = user ? `${user.id}.${user.role}` : '0.0';
    const title = escapeHtml(status.system_name.trim() || 'Sluice');
    const html = user ? firstPaint.html.replaceAll(NAME_MARK, () => escapeHtml(user.name)) : firstPaint.html;
    // Replacer functions: a `$` in the status or the styles is text, not a replacement pattern.
    return paintIndex
      .replace(
        /<html[^>]*>/,
        () =>
          `<html lang="${look.language}" class="first-paint-pending" data-first-paint="${look.language}.${look.theme}.${who}">`,
      )
      .replace(/<title>[^<]*<\/title>/, () => `<title>${title}</title>`)
      .replace(
        '</head>',
        () =>
          `<script>${GUARD_SCRIPT}</script>${firstPaint.css}` +
          `<script type="application/json" id="first-paint-status">${jsonForScript(status)}</script></head>`,
      )
      .replace('<div id="root"></div>', () => `<div id="root">${html}</div>`);
  }

  return {
    get active() {
      return renderer !== null && !broken;
    },
    page(path, look, user) {
      if (!renderer || broken || !PAGE_PATH.test(path)) return indexHtml;
      const key = `${path} ${look.language} ${look.theme} ${user ? roleLevel(user.role) : ROLE.guest}`;
      const status = options.status();
      if (!cache.has(key)) {
        schedule(key, {
          path,
          language: look.language,
          theme: look.theme,
          user: user && {
            id: 0,
            username: NAME_MARK,
            display_name: '',
            role: roleLevel(user.role),
            status: 1,
            group: '',
          },
          status,
        });
        return indexHtml;
      }
      const firstPaint = cache.get(key) ?? null;
      return firstPaint ? assemble(firstPaint, look, user, status) : indexHtml;
    },
    async close() {
      stopListening();
      await renderer?.stop();
    },
  };
}
