import type { LightMyRequestResponse } from 'fastify';
import { MSG, USER_STATUS } from '@sluice/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../../test-support/databases.js';
import { createTestApp, expectRefusal } from '../../test-support/test-app.js';
import type { Caller, TestApp } from '../../test-support/test-app.js';
import { callerFrom, guardedCall, manualClock, setOptions } from '../../test-support/fakes/app-helpers.js';
import { startFakeGitHub } from '../../test-support/fakes/github.js';
import type { FakeGitHub, GitHubProfile } from '../../test-support/fakes/github.js';
import { startFakeLinuxDo } from '../../test-support/fakes/linuxdo.js';
import type { FakeLinuxDo } from '../../test-support/fakes/linuxdo.js';
import { OAUTH_STATE_COOKIE } from './oauth-state.js';

const GH = { clientId: 'gh-client-id', clientSecret: 'gh-client-secret-never-shown' };
const LD = { clientId: 'ld-client-id', clientSecret: 'ld-client-secret-never-shown' };

interface State {
  state: string;
  cookie: string;
}

describe.each(testDialects())('GitHub and LinuxDO sign-in on %s', (dialect) => {
  let t: TestApp;
  let github: FakeGitHub;
  let linuxdo: FakeLinuxDo;
  let call: ReturnType<typeof guardedCall>;
  const clock = manualClock();
  let nextId = 5000;

  const newState = async (aff = ''): Promise<State> => {
    const res = await call({ method: 'GET', url: `/api/oauth/state${aff ? `?aff=${aff}` : ''}` });
    expect(res.statusCode).toBe(200);
    const cookie = res.cookies.find((c) => c.name === OAUTH_STATE_COOKIE);
    if (!cookie) throw new Error('no state cookie');
    return {
      state: res.json().data as string,
      cookie: `${OAUTH_STATE_COOKIE}=${encodeURIComponent(cookie.value)}`,
    };
  };

  const callback = (
    provider: 'github' | 'linuxdo',
    code: string,
    s: State,
    opts: { as?: Caller; cookie?: string | null } = {},
  ): Promise<LightMyRequestResponse> => {
    const cookies = [opts.as?.headers.cookie, opts.cookie === undefined ? s.cookie : opts.cookie].filter(
      Boolean,
    );
    return call({
      method: 'GET',
      url: `/api/oauth/${provider}?code=${code}&state=${s.state}`,
      as: opts.as,
      headers: cookies.length ? { cookie: cookies.join('; ') } : {},
    });
  };

  const githubLogin = async (profile: GitHubProfile, opts: { as?: Caller; aff?: string } = {}) =>
    callback('github', github.authorize(profile), await newState(opts.aff), { as: opts.as });

  const userRow = (id: number) =>
    t.db.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const countUsers = async () =>
    Number(
      (
        await t.db.db
          .selectFrom('users')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeAll(async () => {
    github = await startFakeGitHub(GH);
    linuxdo = await startFakeLinuxDo(LD);
    t = await createTestApp({
      dialect,
      clock,
      endpoints: {
        githubOAuth: github.url,
        githubApi: github.url,
        linuxdoOAuth: linuxdo.url,
        linuxdoApi: linuxdo.url,
      },
    });
    call = guardedCall(t, [GH.clientSecret, LD.clientSecret]);
    await setOptions(t, {
      GitHubClientId: GH.clientId,
      GitHubClientSecret: GH.clientSecret,
      GitHubOAuthEnabled: 'true',
      LinuxDOClientId: LD.clientId,
      LinuxDOClientSecret: LD.clientSecret,
      LinuxDOOAuthEnabled: 'true',
      QuotaForNewUser: '1000',
      QuotaForInvitee: '200',
      QuotaForInviter: '300',
    });
  });
  afterAll(async () => {
    await t?.close();
    await github?.close();
    await linuxdo?.close();
  });

  describe('GitHub', () => {
    it('creates the account on the first sign-in (with the invite from the state) and signs in to it later', async () => {
      const inviter = await t.createUser();
      const { aff_code } = await userRow(inviter.id);
      const id = ++nextId;
      const first = await githubLogin(
        { id, login: 'octo-cat', name: 'Octo Cat', email: 'Octo@Example.com' },
        { aff: aff_code },
      );
      expect(first.statusCode).toBe(200);
      expect(first.json().data).toMatchObject({
        username: 'octo-cat',
        display_name: 'Octo Cat',
        role: 1,
        status: 1,
        group: 'default',
      });
      const created = await userRow(first.json().data.id);
      expect(created).toMatchObject({
        github_id: String(id),
        email: 'octo@example.com',
        inviter_id: inviter.id,
        quota: 1200,
      });
      expect((await userRow(inviter.id)).aff_quota).toBe(300);

      // The token exchange carried the client credentials and asked for JSON.
      const exchange = github.requests.filter((r) => r.path === '/login/oauth/access_token').at(-1);
      expect(exchange?.headers.accept).toBe('application/json');
      expect(exchange?.fields).toMatchObject({ client_id: GH.clientId, client_secret: GH.clientSecret });

      // The answer's cookie is a working session.
      const self = await call({ method: 'GET', url: '/api/user/self', as: callerFrom(first) });
      expect(self.json().data.username).toBe('octo-cat');

      const users = await countUsers();
      const second = await githubLogin({ id, login: 'octo-cat-renamed' });
      expect(second.statusCode).toBe(200);
      expect(second.json().data.id).toBe(created.id);
      expect(await countUsers()).toBe(users);
    });

    it('names the account github_<id> when the GitHub login is taken or does not fit', async () => {
      const taken = await t.createUser();
      const a = ++nextId;
      const res = await githubLogin({ id: a, login: taken.username });
      expect(res.json().data.username).toBe(`github_${a}`);
      const b = ++nextId;
      const long = await githubLogin({ id: b, login: 'a-very-long-github-login-name' });
      expect(long.json().data.username).toBe(`github_${b}`);
      expect(long.json().data.display_name).toBe('a-very-long-github-l');
    });

    it('binds GitHub to the signed-in user, and that GitHub account then signs in as the user', async () => {
      const user = await t.createUser();
      const id = ++nextId;
      const res = await githubLogin({ id, login: 'binder' }, { as: user });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ success: true, message: 'bind' });
      expect((await userRow(user.id)).github_id).toBe(String(id));

      const login = await githubLogin({ id, login: 'binder' });
      expect(login.json().data.id).toBe(user.id);
    });

    it('refuses to bind a GitHub account another user holds', async () => {
      const holder = await t.createUser();
      const other = await t.createUser();
      const id = ++nextId;
      expect((await githubLogin({ id, login: 'held' }, { as: holder })).statusCode).toBe(200);
      const res = await githubLogin({ id, login: 'held' }, { as: other });
      expectRefusal(res);
      expect(res.json().message).toBe(MSG.oauthAccountBound('GitHub'));
      expect((await userRow(other.id)).github_id).toBe('');
      expect((await userRow(holder.id)).github_id).toBe(String(id));
    });

    it('refuses an unknown state, a state without its cookie, a used state and an expired one', async () => {
      const exchanges = () => github.requests.filter((r) => r.path === '/login/oauth/access_token').length;
      const before = exchanges();
      const code = github.authorize({ id: ++nextId, login: 'stateless' });

      const unknown = await callback('github', code, { state: 'not-a-state', cookie: '' }, { cookie: null });
      expectRefusal(unknown);
      expect(unknown.json().message).toBe(MSG.oauthStateInvalid);

      const noCookie = await callback('github', code, await newState(), { cookie: null });
      expectRefusal(noCookie);

      const mine = await newState();
      const theirs = await newState();
      const swapped = await callback('github', code, { state: theirs.state, cookie: mine.cookie });
      expectRefusal(swapped);
      expect(exchanges()).toBe(before);

      const s = await newState();
      expect((await callback('github', code, s)).statusCode).toBe(200);
      const reused = await callback('github', github.authorize({ id: ++nextId, login: 'again' }), s);
      expectRefusal(reused);
      expect(reused.json().message).toBe(MSG.oauthStateInvalid);

      const old = await newState();
      clock.advance(10 * 60 + 1);
      const late = await callback('github', github.authorize({ id: ++nextId, login: 'late' }), old);
      expectRefusal(late);
    });

    it('lets exactly one of two simultaneous callbacks use a state', async () => {
      const s = await newState();
      const results = await Promise.all([
        callback('github', github.authorize({ id: ++nextId, login: 'race-one' }), s),
        callback('github', github.authorize({ id: ++nextId, login: 'race-two' }), s),
      ]);
      expect(results.map((r) => r.json<{ success: boolean }>().success).sort()).toEqual([false, true]);
    });

    it('refuses sign-in while GitHub login is switched off', async () => {
      await setOptions(t, { GitHubOAuthEnabled: 'false' });
      try {
        const res = await githubLogin({ id: ++nextId, login: 'off' });
        expectRefusal(res);
        expect(res.json().message).toBe(MSG.oauthNotEnabled('GitHub'));
      } finally {
        await setOptions(t, { GitHubOAuthEnabled: 'true' });
      }
    });

    it('refuses new accounts while registration is off, but still signs in bound users', async () => {
      const user = await t.createUser();
      const id = ++nextId;
      await githubLogin({ id, login: 'bound-before' }, { as: user });
      await setOptions(t, { RegisterEnabled: 'false' });
      try {
        const users = await countUsers();
        const res = await githubLogin({ id: ++nextId, login: 'newcomer' });
        expectRefusal(res);
        expect(res.json().message).toBe(MSG.registerDisabled);
        expect(await countUsers()).toBe(users);
        expect((await githubLogin({ id, login: 'bound-before' })).json().data.id).toBe(user.id);
      } finally {
        await setOptions(t, { RegisterEnabled: 'true' });
      }
    });

    it('refuses a banned user', async () => {
      const user = await t.createUser();
      const id = ++nextId;
      await githubLogin({ id, login: 'to-ban' }, { as: user });
      await t.db.db
        .updateTable('users')
        .set({ status: USER_STATUS.banned })
        .where('id', '=', user.id)
        .execute();
      const res = await githubLogin({ id, login: 'to-ban' });
      expectRefusal(res);
      expect(res.json().message).toBe(MSG.userBanned);
      expect(res.cookies.find((c) => c.name === 'session')).toBeUndefined();
    });

    it('answers 502 in plain words when GitHub fails, and never shows the client secret', async () => {
      const badCode = await callback('github', 'never-issued', await newState());
      expectRefusal(badCode);
      expect(badCode.json().message).toBe(MSG.oauthUpstreamFailed('GitHub'));

      github.failProfileWith(500);
      try {
        const res = await githubLogin({ id: ++nextId, login: 'down' });
        expectRefusal(res);
      } finally {
        github.failProfileWith(null);
      }

      await setOptions(t, { GitHubClientSecret: 'a-wrong-secret' });
      try {
        expectRefusal(await githubLogin({ id: ++nextId, login: 'misconfigured' }));
      } finally {
        await setOptions(t, { GitHubClientSecret: GH.clientSecret });
      }
    });
  });

  describe('LinuxDO', () => {
    const linuxdoLogin = async (profile: Parameters<FakeLinuxDo['authorize']>[0], as?: Caller) =>
      callback('linuxdo', linuxdo.authorize(profile), await newState(), { as });
    beforeAll(async () => setOptions(t, { ServerAddress: 'https://gateway.example' }));

    it('refuses while the site address (its callback address) is not configured', async () => {
      await setOptions(t, { ServerAddress: '' });
      try {
        const res = await linuxdoLogin({ id: ++nextId, username: 'no_site' });
        expectRefusal(res, MSG.serverAddressNotConfigured);
      } finally {
        await setOptions(t, { ServerAddress: 'https://gateway.example' });
      }
    });

    it('creates the account on the first sign-in and signs in to it later, with the callback address', async () => {
      const id = ++nextId;
      const first = await linuxdoLogin({ id, username: 'forum_user', name: 'Forum User' });
      expect(first.statusCode).toBe(200);
      expect(first.json().data).toMatchObject({ username: 'forum_user', display_name: 'Forum User' });
      expect((await userRow(first.json().data.id)).linux_do_id).toBe(String(id));
      const exchange = linuxdo.requests.filter((r) => r.path === '/oauth2/token').at(-1);
      expect(exchange?.fields.redirect_uri).toBe('https://gateway.example/oauth/linuxdo');

      const second = await linuxdoLogin({ id, username: 'forum_user' });
      expect(second.json().data.id).toBe(first.json().data.id);
    });

    it('binds to the signed-in user and refuses an account another user holds', async () => {
      const holder = await t.createUser();
      const other = await t.createUser();
      const id = ++nextId;
      const bind = await linuxdoLogin({ id, username: 'bindme' }, holder);
      expect(bind.json()).toMatchObject({ success: true, message: 'bind' });
      expect((await userRow(holder.id)).linux_do_id).toBe(String(id));
      const res = await linuxdoLogin({ id, username: 'bindme' }, other);
      expectRefusal(res);
      expect(res.json().message).toBe(MSG.oauthAccountBound('LinuxDO'));
    });

    it('names the account linuxdo_<id> when the forum username is taken', async () => {
      const taken = await t.createUser();
      const id = ++nextId;
      expect((await linuxdoLogin({ id, username: taken.username })).json().data.username).toBe(
        `linuxdo_${id}`,
      );
    });

    it('refuses a silenced or inactive forum account, a bad state and a switched-off provider', async () => {
      const silenced = await linuxdoLogin({ id: ++nextId, username: 'quiet', silenced: true });
      expectRefusal(silenced);
      expect(silenced.json().message).toBe(MSG.linuxdoAccountInactive);
      expectRefusal(await linuxdoLogin({ id: ++nextId, username: 'sleepy', active: false }));

      const code = linuxdo.authorize({ id: ++nextId, username: 'nostate' });
      const bad = await callback('linuxdo', code, { state: 'forged', cookie: '' }, { cookie: null });
      expectRefusal(bad);
      expect(bad.json().message).toBe(MSG.oauthStateInvalid);

      await setOptions(t, { LinuxDOOAuthEnabled: 'false' });
      try {
        const off = await linuxdoLogin({ id: ++nextId, username: 'off' });
        expectRefusal(off);
        expect(off.json().message).toBe(MSG.oauthNotEnabled('LinuxDO'));
      } finally {
        await setOptions(t, { LinuxDOOAuthEnabled: 'true' });
      }
    });
  });
});
