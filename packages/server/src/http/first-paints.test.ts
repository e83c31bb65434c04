// A console page's first paint: served inside index.html once rendered, in the variant the visitor's
// cookies and session call for, with the user's name written in and the site's current status.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOOK_COOKIE, ROLE } from '@sluice/shared';
import type { PublicStatus } from '@sluice/shared';
import type { FastifyBaseLogger } from 'fastify';
import { createFirstPaints } from './first-paints.js';
import { setOptions } from '../test-support/relay-kit.js';
import { createTestApp } from '../test-support/test-app.js';
import type { Caller, TestApp } from '../test-support/test-app.js';

const INDEX_HTML = `<!doctype html>
<html lang="en">
  <head>
    <title>Sluice</title>
    <script type="module" crossorigin src="/assets/app.js"></script>
    <link rel="stylesheet" crossorigin href="/assets/app.css">
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>
`;

/**
 * Stands in for the console's renderer (packages/web/src/first-paint/process-main.ts), with its contract:
 * one answer per job id, null for a page without a first paint. /login is public, /token needs a
 * user, /channel an admin; /throws fails to render, /crash breaks the renderer.
 */
const FAKE_RENDERER = `
const access = { '/login': 0, '/token': 1, '/channel': 10 };
process.on('message', ({ id, request }) => {
  if (request.path === '/crash') throw new Error('the renderer broke');
  if (request.path === '/throws') {
    process.send({ id, error: 'Error: the page threw' });
    return;
  }
  const needed = access[request.path];
  if (needed === undefined || (needed > 0 && (request.user?.role ?? 0) < needed)) {
    process.send({ id, firstPaint: null });
    return;
  }
  const who = request.user ? '<span class="name">' + request.user.username + '</span>' : '';
  process.send({
    id,
    firstPaint: {
      html: '<h1>' + [request.path, request.language, request.theme, request.status.system_name].join(' ') + '</h1>' + who,
      css: '<style data-css-hash="fake">.fake{color:red}</style>',
    },
  });
});
`;

const silentLog = { error: () => undefined } as unknown as FastifyBaseLogger;

function consoleBuild(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sluice-first-paint-'));
  const web = join(dir, 'dist');
  mkdirSync(join(web, 'assets'), { recursive: true });
  writeFileSync(join(web, 'index.html'), INDEX_HTML);
  writeFileSync(join(web, 'assets', 'app.css'), 'body{margin:0}');
  writeFileSync(join(web, 'assets', 'app.js'), '');
  mkdirSync(`${web}-first-paint`);
  writeFileSync(join(`${web}-first-paint`, 'first-paint-renderer.js'), FAKE_RENDERER);
  return web;
}

/** The page once its variant has been rendered (the first request only asks for it). */
async function paintedPage(t: TestApp, url: string, headers: Record<string, string> = {}): Promise<string> {
  let body = '';
  // The real renderer starts a process first: on a loaded machine that takes seconds, not one.
  await expect
    .poll(
      async () => {
        body = (await t.call({ method: 'GET', url, headers })).body;
        return body.includes('data-first-paint=');
      },
      { timeout: 20_000 },
    )
    .toBe(true);
  return body;
}

const rootOf = (html: string): string => /<div id="root">([\s\S]*?)<\/div>\s*<\/body>/.exec(html)?.[1] ?? '';
const withCookie = (caller: Caller | null, look?: string): Record<string, string> => {
  const cookies = [caller?.headers.cookie, look === undefined ? undefined : `${LOOK_COOKIE}=${look}`];
  return { cookie: cookies.filter(Boolean).join('; ') };
};

describe('first paints', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ config: { webDist: consoleBuild() } });
  });
  afterAll(async () => t?.close());

  it("a visitor's first load gets index.html as built, and later loads get the page rendered inside it", async () => {
    const first = await t.call({ method: 'GET', url: '/login' });
    expect(first.statusCode).toBe(200);
    expect(first.body).toBe(INDEX_HTML);

    const page = await paintedPage(t, '/login');
    // Not clickable until the console has taken it over (packages/web/src/app/global.css).
    expect(page).toContain('<html lang="en" class="first-paint-pending" data-first-paint="en.light.0.0">');
    expect(rootOf(page)).toBe('<h1>/login en light Sluice</h1>');
    // Nothing to wait for before it shows: the stylesheet and the guard are inline.
    expect(page).toContain('<style>body{margin:0}</style>');
    expect(page).not.toContain('<link rel="stylesheet"');
    expect(page).toContain('<style data-css-hash="fake">.fake{color:red}</style>');
    // The module scripts still load as before.
    expect(page).toContain('<script type="module" crossorigin src="/assets/app.js"></script>');
  });

  it('the inline guard is the one script the content security policy allows by hash', async () => {
    await paintedPage(t, '/login');
    const res = await t.call({ method: 'GET', url: '/login' });
    const inline = [...res.body.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1] ?? '');
    expect(inline).toHaveLength(1);
    const hash = createHash('sha256')
      .update(inline[0] ?? '')
      .digest('base64');
    expect(String(res.headers['content-security-policy'])).toMatch(
      new RegExp(`script-src 'self' 'sha256-${hash.replace(/[+/]/g, '\\$&')}'`),
    );
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers.vary).toBe('cookie');
  });

  it('carries the status it was rendered with, as /api/status answers it', async () => {
    const page = await paintedPage(t, '/login');
    const json = /<script type="application\/json" id="first-paint-status">([^<]*)<\/script>/.exec(page)?.[1];
    const status = (await t.call({ method: 'GET', url: '/api/status' })).json<{ data: unknown }>().data;
    expect(JSON.parse(json ?? 'null')).toEqual(status);
  });

  it('is rendered in the language and theme of the console’s cookie; anything else reads as the default', async () => {
    const zh = await paintedPage(t, '/login', withCookie(null, 'zh-CN.dark'));
    expect(zh).toContain('<html lang="zh-CN" class="first-paint-pending" data-first-paint="zh-CN.dark.0.0">');
    expect(rootOf(zh)).toBe('<h1>/login zh-CN dark Sluice</h1>');

    for (const look of ['fr.light', 'zh-CN.blue', 'en.light; x=1', '']) {
      const page = await paintedPage(t, '/login', withCookie(null, look));
      expect(page).toContain('data-first-paint="en.light.0.0"');
    }
  });

  it("shows a signed-in user's own name, escaped, on pages their role may open; others stay plain", async () => {
    const user = await t.createUser({ role: ROLE.user });
    await t.db.db
      .updateTable('users')
      .set({ display_name: `<b>Tom & "Jerry"</b> $& $'` })
      .where('id', '=', user.id)
      .execute();
    const page = await paintedPage(t, '/token', withCookie(user));
    expect(page).toContain(`data-first-paint="en.light.${user.id}.${ROLE.user}"`);
    expect(rootOf(page)).toBe(
      '<h1>/token en light Sluice</h1><span class="name">&#60;b&#62;Tom &#38; &#34;Jerry&#34;&#60;/b&#62; $&#38; $&#39;</span>',
    );

    // An admin page: the renderer has none for a user; it is asked once, then served plain.
    await t.call({ method: 'GET', url: '/channel', headers: withCookie(user) });
    await expect
      .poll(async () => (await t.call({ method: 'GET', url: '/channel', headers: withCookie(user) })).body)
      .toBe(INDEX_HTML);
    // A visitor (no session) on /token: no first paint, the console sends them to /login.
    await t.call({ method: 'GET', url: '/token' });
    await expect.poll(async () => (await t.call({ method: 'GET', url: '/token' })).body).toBe(INDEX_HTML);
  });

  it('one rendering serves every user of a role, each with their own name', async () => {
    const admins = [await t.createUser({ role: ROLE.admin }), await t.createUser({ role: ROLE.admin })];
    await paintedPage(t, '/channel', withCookie(admins[0] ?? null));
    for (const admin of admins) {
      const page = (await t.call({ method: 'GET', url: '/channel', headers: withCookie(admin) })).body;
      expect(page).toContain(`data-first-paint="en.light.${admin.id}.${ROLE.admin}"`);
      expect(rootOf(page)).toContain(`<span class="name">${admin.username}</span>`);
    }
  });

  it('an account that must first choose a new password, or is disabled, gets no page of its own', async () => {
    const changing = await t.createUser({ role: ROLE.user });
    await t.db.db
      .updateTable('users')
      .set({ password_change_required: 1 })
      .where('id', '=', changing.id)
      .execute();
    await paintedPage(t, '/login');
    for (let i = 0; i < 3; i++) {
      expect((await t.call({ method: 'GET', url: '/token', headers: withCookie(changing) })).body).toBe(
        INDEX_HTML,
      );
    }
    const disabled = await t.createUser({ role: ROLE.user });
    await t.db.db.updateTable('users').set({ status: 2 }).where('id', '=', disabled.id).execute();
    // Read as a visitor: the login page's visitor variant.
    const page = await paintedPage(t, '/login', withCookie(disabled));
    expect(page).toContain('data-first-paint="en.light.0.0"');
  });

  it('a changed option drops what was rendered: the next loads show the new name, escaped, in the title too', async () => {
    await paintedPage(t, '/login');
    await setOptions(t, { SystemName: 'Relay <One> & $1' });
    try {
      expect((await t.call({ method: 'GET', url: '/login' })).body).toBe(INDEX_HTML);
      const page = await paintedPage(t, '/login');
      expect(page).toContain('<title>Relay &#60;One&#62; &#38; $1</title>');
      expect(rootOf(page)).toBe('<h1>/login en light Relay <One> & $1</h1>');
    } finally {
      await setOptions(t, { SystemName: 'Sluice' });
    }
  });

  it('a page that fails to render goes without, and the others keep theirs', async () => {
    await t.call({ method: 'GET', url: '/throws' });
    await paintedPage(t, '/login');
    for (let i = 0; i < 3; i++)
      expect((await t.call({ method: 'GET', url: '/throws' })).body).toBe(INDEX_HTML);
    expect((await t.call({ method: 'GET', url: '/login' })).body).toContain('data-first-paint=');
  });

  it('answers HEAD, and leaves API and relay paths, files and odd addresses alone', async () => {
    await paintedPage(t, '/login');
    const head = await t.call({ method: 'HEAD', url: '/login' });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toBe('text/html; charset=utf-8');
    expect((await t.call({ method: 'GET', url: '/api/nothing' })).json()).toMatchObject({ success: false });
    expect((await t.call({ method: 'GET', url: '/v1/nothing' })).statusCode).toBe(501);
    for (const url of ['/login.php', `/${'a'.repeat(100)}`, '/%3Cscript%3E']) {
      expect((await t.call({ method: 'GET', url })).body).toBe(INDEX_HTML);
    }
    // The query is not part of the page: /login?expired=true is /login's first paint.
    expect(await paintedPage(t, '/login?expired=true')).toContain('data-first-paint=');
  });
});

describe('the variants kept', () => {
  it('are the most recently served, up to the limit; the oldest is rendered again when asked for', async () => {
    const web = consoleBuild();
    const paints = createFirstPaints({
      indexHtml: INDEX_HTML,
      rendererFile: join(`${web}-first-paint`, 'first-paint-renderer.js'),
      readStylesheet: () => null,
      status: () => ({ system_name: 'Sluice' }) as PublicStatus,
      onStatusChange: () => () => undefined,
      log: silentLog,
      maxEntries: 2,
    });
    try {
      const look = (language: 'en' | 'zh-CN', theme: 'light' | 'dark') => ({ language, theme });
      const painted = async (l: ReturnType<typeof look>) => {
        await expect.poll(() => paints.page('/login', l, null).includes('data-first-paint=')).toBe(true);
      };
      await painted(look('en', 'light'));
      await painted(look('en', 'dark'));
      // Served again: now the most recent of the two.
      expect(paints.page('/login', look('en', 'light'), null)).toContain('data-first-paint="en.light.0.0"');
      await painted(look('zh-CN', 'light'));
      expect(paints.page('/login', look('en', 'light'), null)).toContain('data-first-paint="en.light.0.0"');
      // en.dark was the least recently served: dropped, so sent as built while it is rendered again.
      expect(paints.page('/login', look('en', 'dark'), null)).toBe(INDEX_HTML);
      await painted(look('en', 'dark'));
    } finally {
      await paints.close();
    }
  });
});

describe('first paints when the renderer fails', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ config: { webDist: consoleBuild() } });
  });
  afterAll(async () => t?.close());

  it('stop for good, and every page is still served as built', async () => {
    await t.call({ method: 'GET', url: '/crash' });
    await expect.poll(async () => (await t.call({ method: 'GET', url: '/login' })).body).toBe(INDEX_HTML);
    // Given time, /login would have been rendered by a working renderer; this one is off.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await t.call({ method: 'GET', url: '/login' })).body).toBe(INDEX_HTML);
  });
});

// The real renderer, as `npm run build` makes it (packages/web/dist-first-paint). It is built by
// `npm ci` (the prepare script); a checkout that has not built the console has nothing to test here.
const webDist = join(import.meta.dirname, '../../../web/dist');
describe.skipIf(!existsSync(join(`${webDist}-first-paint`, 'first-paint-renderer.js')))(
  'the console’s renderer',
  () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ config: { webDist } });
    });
    afterAll(async () => t?.close());

    it('renders the login page with the site’s name, and the tokens page with the frame and user', async () => {
      await setOptions(t, { SystemName: 'Relay One' });
      const login = await paintedPage(t, '/login');
      expect(rootOf(login)).toMatch(/<h1[^>]*>Log in<\/h1>/);
      expect(rootOf(login)).toContain('Relay One');
      expect(login).toMatch(/<style data-rc-order="[^"]+" data-rc-priority="[^"]+" data-css-hash="[^"]+">/);

      const user = await t.createUser({ role: ROLE.user, username: 'first_paint_user' });
      const tokens = await paintedPage(t, '/token', withCookie(user));
      expect(rootOf(tokens)).toContain('first_paint_user');
      expect(rootOf(tokens)).toContain('Tokens');
      expect(rootOf(tokens)).not.toContain('<script');
    }, 30_000);
  },
);
