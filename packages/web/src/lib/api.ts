// The console's only HTTP client. Every call goes through `request`, which adds the New-Api-User
// header, unwraps the {success, message, data} envelope and shows the spec's error catalogue
// (part 1 §8) once, so pages only handle success and their own special cases.
import { MSG } from '@sluice/shared';
import { i18n } from '../i18n';
import { clearUser, getUser } from './session';

export type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions {
  query?: Record<string, QueryValue>;
  body?: unknown;
  signal?: AbortSignal;
  /** The caller shows the failure itself (inline); no toast. The catalogue's 401 handling still runs. */
  silent?: boolean;
  /**
   * For sign-in calls: a 401 means the credentials were refused, not that a session expired, so the
   * message is shown and nobody is redirected.
   */
  credentialsCall?: boolean;
}

export interface ApiAnswer<T> {
  message: string;
  data: T;
}

/** A failed call. `message` is the server's sentence (or the network error); `status` 0 means no answer. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface ApiHandlers {
  notify(kind: 'error' | 'info', text: string): void;
  /** Called after a 401 cleared the stored user. */
  onUnauthorized(): void;
}

const handlers: ApiHandlers = {
  notify: () => undefined,
  onUnauthorized: () => window.location.assign('/login?expired=true'),
};

/** The app shell plugs in its toast and router here. */
export function configureApi(next: Partial<ApiHandlers>): void {
  Object.assign(handlers, next);
}

const messageKeys = new Map<string, string>(
  Object.entries(MSG).flatMap(([key, value]) => (typeof value === 'string' ? [[value, key]] : [])),
);

/** Server sentences are the English MSG texts; show them in the chosen language when we know them. */
export function translateServerMessage(text: string): string {
  const key = messageKeys.get(text);
  return key ? i18n.t(`msg.${key}`, { defaultValue: text }) : text;
}

function buildUrl(path: string, query: RequestOptions['query']): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) params.set(key, String(value));
  }
  const qs = params.toString();
  return qs === '' ? path : `${path}${path.includes('?') ? '&' : '?'}${qs}`;
}

interface Envelope {
  success: boolean;
  message: string;
  data: unknown;
}

const isEnvelope = (value: unknown): value is Envelope =>
  typeof value === 'object' && value !== null && typeof (value as Envelope).success === 'boolean';

function fail(error: ApiError, text: string, kind: 'error' | 'info', silent: boolean | undefined): never {
  if (!silent) handlers.notify(kind, text);
  throw error;
}

export async function request<T>(
  method: string,
  path: string,
  options: RequestOptions = {},
): Promise<ApiAnswer<T>> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const user = getUser();
  if (user) headers['New-Api-User'] = String(user.id);
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';

  let response: Response;
  try {
    response = await fetch(buildUrl(path, options.query), {
      method,
      headers,
      credentials: 'same-origin',
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
    });
  } catch (cause) {
    if (options.signal?.aborted) throw cause;
    const message = cause instanceof Error ? cause.message : String(cause);
    return fail(new ApiError(0, message), i18n.t('http.failure', { message }), 'error', options.silent);
  }

  // A proxy's or static server's error page is not JSON: treat it as no envelope.
  const body: unknown = await response.json().catch(() => null);
  const envelope = isEnvelope(body) ? body : null;
  const serverMessage = envelope?.message || response.statusText || `HTTP ${response.status}`;
  const error = new ApiError(response.status, serverMessage);

  switch (response.status) {
    case 401:
      if (options.credentialsCall) break;
      clearUser();
      handlers.onUnauthorized();
      throw error;
    case 429:
      return fail(error, i18n.t('http.tooManyRequests'), 'error', options.silent);
    case 500:
      return fail(error, i18n.t('http.serverError'), 'error', options.silent);
    case 405:
      return fail(error, i18n.t('http.demoSite'), 'info', options.silent);
  }
  if (!response.ok || !envelope) {
    return fail(
      error,
      i18n.t('http.failure', { message: translateServerMessage(serverMessage) }),
      'error',
      options.silent,
    );
  }
  if (!envelope.success) {
    // HTTP 200 with success false: the server's sentence is the whole message.
    return fail(error, translateServerMessage(serverMessage), 'error', options.silent);
  }
  return { message: envelope.message, data: envelope.data as T };
}

type Query = RequestOptions['query'];
type Options = Omit<RequestOptions, 'query' | 'body'>;

/** Shorthands that return only `data`. */
export const api = {
  get: async <T>(path: string, query?: Query, options?: Options): Promise<T> =>
    (await request<T>('GET', path, { ...options, query })).data,
  post: async <T>(path: string, body?: unknown, options?: RequestOptions): Promise<T> =>
    (await request<T>('POST', path, { ...options, body })).data,
  put: async <T>(path: string, body?: unknown, options?: RequestOptions): Promise<T> =>
    (await request<T>('PUT', path, { ...options, body })).data,
  delete: async <T>(path: string, options?: RequestOptions): Promise<T> =>
    (await request<T>('DELETE', path, options)).data,
};
