import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { installFetch, failure, ok } from '../test/fake-fetch';
import { ApiError, api, configureApi, request } from './api';
import { clearUser, getUser, setUser } from './session';

const notify = vi.fn();
const onUnauthorized = vi.fn();

beforeEach(() => {
  localStorage.clear();
  clearUser();
  notify.mockReset();
  onUnauthorized.mockReset();
  configureApi({ notify, onUnauthorized });
});
afterEach(() => vi.unstubAllGlobals());

const signedIn = () =>
  setUser({ id: 42, username: 'ada', display_name: 'Ada', role: 1, status: 1, group: 'default' });

describe('lib/api envelope', () => {
  it('returns data of a successful envelope and shows nothing', async () => {
    installFetch({ 'GET /api/user/models': ok(['gpt-4o', 'claude-3']) });
    await expect(api.get<string[]>('/api/user/models')).resolves.toEqual(['gpt-4o', 'claude-3']);
    expect(notify).not.toHaveBeenCalled();
  });

  it('gives the message too when the caller asks for the whole answer', async () => {
    installFetch({ 'GET /api/oauth/github': ok(null, 'bind') });
    await expect(request('GET', '/api/oauth/github')).resolves.toEqual({ message: 'bind', data: null });
  });

  it('sends New-Api-User with the stored user id, and none when signed out', async () => {
    const calls = installFetch({ 'GET /api/user/self': ok({}) });
    await api.get('/api/user/self');
    signedIn();
    await api.get('/api/user/self');
    expect(calls[0]?.headers.has('New-Api-User')).toBe(false);
    expect(calls[1]?.headers.get('New-Api-User')).toBe('42');
  });

  it('sends the body as JSON and drops empty query values', async () => {
    const calls = installFetch({ 'POST /api/user/login': ok({ id: 1 }) });
    await api.post(
      '/api/user/login',
      { username: 'a', password: 'b' },
      { query: { turnstile: undefined, x: 1 } },
    );
    expect(calls[0]?.body).toEqual({ username: 'a', password: 'b' });
    expect(calls[0]?.headers.get('Content-Type')).toBe('application/json');
    expect(calls[0]?.query.toString()).toBe('x=1');
  });

  it('throws when success is false, showing the server sentence', async () => {
    installFetch({
      'GET /api/user/aff': { body: { success: false, message: 'no invite code', data: null } },
    });
    await expect(api.get('/api/user/aff')).rejects.toBeInstanceOf(ApiError);
    expect(notify).toHaveBeenCalledWith('error', 'no invite code');
  });
});

describe('lib/api error catalogue', () => {
  it('401: forgets the stored user and sends the browser to the login page', async () => {
    signedIn();
    installFetch({ 'GET /api/user/self': failure(401, 'not logged in, please log in first') });
    await expect(api.get('/api/user/self')).rejects.toMatchObject({ status: 401 });
    expect(getUser()).toBeNull();
    expect(localStorage.getItem('user')).toBeNull();
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    expect(notify).not.toHaveBeenCalled();
  });

  it('401 on a sign-in call is a refused password, not an expired session', async () => {
    installFetch({
      'POST /api/user/login': failure(401, 'username or password is wrong, or the user has been banned'),
    });
    await expect(api.post('/api/user/login', {}, { credentialsCall: true })).rejects.toMatchObject({
      status: 401,
    });
    expect(onUnauthorized).not.toHaveBeenCalled();
    expect(notify).toHaveBeenCalledWith(
      'error',
      'Error: username or password is wrong, or the user has been banned',
    );
  });

  it('429: too many requests', async () => {
    installFetch({ 'GET /api/status': failure(429, 'slow down') });
    await expect(api.get('/api/status')).rejects.toMatchObject({ status: 429 });
    expect(notify).toHaveBeenCalledWith('error', 'Error: too many requests, try again later');
  });

  it('500: server internal error', async () => {
    installFetch({ 'GET /api/status': failure(500, 'boom') });
    await expect(api.get('/api/status')).rejects.toMatchObject({ status: 500 });
    expect(notify).toHaveBeenCalledWith('error', 'Error: server internal error, contact the administrator');
  });

  it('405: an information toast that the site is a demo', async () => {
    installFetch({ 'POST /api/user/register': { status: 405, body: 'Method Not Allowed' } });
    await expect(api.post('/api/user/register', {})).rejects.toMatchObject({ status: 405 });
    expect(notify).toHaveBeenCalledWith('info', 'this site is demo only, no server');
  });

  it('any other failure: "Error: " and the message', async () => {
    installFetch({ 'POST /api/user/register': failure(409, 'the username is already taken') });
    await expect(api.post('/api/user/register', {})).rejects.toMatchObject({
      status: 409,
      message: 'the username is already taken',
    });
    expect(notify).toHaveBeenCalledWith('error', 'Error: the username is already taken');
  });

  it('no answer at all: "Error: " and the network error', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    await expect(api.get('/api/status')).rejects.toMatchObject({ status: 0 });
    expect(notify).toHaveBeenCalledWith('error', 'Error: Failed to fetch');
  });

  it('a silent call shows nothing and leaves the message to the caller', async () => {
    installFetch({
      'GET /api/oauth/github': failure(400, 'the state is invalid or has expired, please try again'),
    });
    await expect(api.get('/api/oauth/github', undefined, { silent: true })).rejects.toMatchObject({
      status: 400,
    });
    expect(notify).not.toHaveBeenCalled();
  });
});
