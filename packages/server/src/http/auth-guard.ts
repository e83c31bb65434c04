// Identifies the caller of every console route and enforces the role each route declares in
// `config.auth`. A route under /api must declare it; the role matrix test reads the same table.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MSG, ROLE, USER_STATUS } from '@sluice/shared';
import type { Kysely } from 'kysely';
import type { Database, UserRow } from '../db/tables.js';
import type { SessionStore } from '../features/auth/session-store.js';
import { ApiError } from './envelope.js';

export type AuthLevel = 'public' | 'user' | 'admin' | 'root';

export const AUTH_MIN_ROLE: Record<AuthLevel, number> = {
  public: ROLE.guest,
  user: ROLE.user,
  admin: ROLE.admin,
  root: ROLE.root,
};

export const SESSION_COOKIE = 'session';

export interface RouteEntry {
  method: string;
  url: string;
  auth: AuthLevel;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every /api route with its declared level; the role-matrix test walks it. */
    routeTable: RouteEntry[];
  }
  interface FastifyContextConfig {
    auth?: AuthLevel;
  }
  interface FastifyRequest {
    /** The signed-in caller, or null for visitors on public routes. */
    user: UserRow | null;
    /** The session id when the caller used the cookie. */
    sessionId: string | null;
  }
}

/** The signed-in caller on a route whose level is above public. */
export function currentUser(req: FastifyRequest): UserRow {
  if (!req.user) throw new ApiError(401, MSG.notLoggedIn);
  return req.user;
}

/** What an account that must change its password may still call. */
const PASSWORD_CHANGE_ROUTES: ReadonlySet<string> = new Set(['GET /api/user/self', 'PUT /api/user/self']);

const routeKey = (req: FastifyRequest): string => `${req.method} ${req.routeOptions.url ?? ''}`;

const bearer = (header: string | undefined): string | null => {
  if (!header) return null;
  const value = header.replace(/^Bearer\s+/i, '').trim();
  return value === '' ? null : value;
};

/** The live session the request's signed cookie names, if any. */
export async function sessionOf(
  req: FastifyRequest,
  sessions: SessionStore,
): Promise<{ id: string; userId: number } | null> {
  const cookie = req.cookies[SESSION_COOKIE];
  const unsigned = cookie ? req.unsignCookie(cookie) : null;
  if (!unsigned?.valid || !unsigned.value) return null;
  const userId = await sessions.lookup(unsigned.value);
  return userId === null ? null : { id: unsigned.value, userId };
}

export function registerAuthGuard(
  app: FastifyInstance,
  deps: { db: Kysely<Database>; sessions: SessionStore },
): void {
  app.decorateRequest('user', null);
  app.decorateRequest('sessionId', null);
  const routeTable: RouteEntry[] = [];
  app.decorate('routeTable', routeTable);

  // The guard runs on the routes that declare a level, first among their preHandlers; the relay's
  // routes (which check keys, not sessions) do not pay for it.
  app.addHook('onRoute', (route) => {
    const url = route.url ?? route.path;
    const auth = route.config?.auth;
    if (auth === undefined) {
      if (url.startsWith('/api/'))
        throw new Error(`route ${String(route.method)} ${url} does not declare config.auth`);
      return;
    }
    route.preHandler = [guard, ...[route.preHandler ?? []].flat()];
    if (!url.startsWith('/api/')) return;
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD') routeTable.push({ method, url, auth });
    }
  });

  const findUser = (column: 'id' | 'access_token', value: number | string) =>
    deps.db
      .selectFrom('users')
      .selectAll()
      .where(column, '=', value as never)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();

  async function identify(req: FastifyRequest): Promise<{ user: UserRow; sessionId: string | null } | null> {
    const headerId = req.headers['new-api-user'];
    const claimedId = typeof headerId === 'string' && headerId.trim() !== '' ? headerId.trim() : null;

    const accessToken = bearer(req.headers.authorization);
    if (accessToken) {
      const user = await findUser('access_token', accessToken);
      if (!user) throw new ApiError(401, 'the access token is invalid');
      if (claimedId !== null && claimedId !== String(user.id))
        throw new ApiError(401, MSG.userHeaderMismatch);
      return { user, sessionId: null };
    }

    const session = await sessionOf(req, deps.sessions);
    if (!session) return null;
    // The header ties the call to the user the console believes is signed in (and blocks
    // cross-site form posts, which cannot set it).
    if (claimedId === null) throw new ApiError(401, MSG.userHeaderMissing);
    if (claimedId !== String(session.userId)) throw new ApiError(401, MSG.userHeaderMismatch);
    const user = await findUser('id', session.userId);
    if (!user) return null;
    return { user, sessionId: session.id };
  }

  async function guard(req: FastifyRequest): Promise<void> {
    const level = req.routeOptions.config.auth;
    if (level === undefined) return;
    let who: Awaited<ReturnType<typeof identify>> = null;
    try {
      who = await identify(req);
    } catch (error) {
      if (level !== 'public') throw error;
    }
    if (who && who.user.status !== USER_STATUS.enabled) {
      if (level !== 'public') throw new ApiError(401, MSG.userBanned);
      who = null;
    }
    req.user = who?.user ?? null;
    req.sessionId = who?.sessionId ?? null;
    if (level === 'public') return;
    if (!req.user) throw new ApiError(401, MSG.notLoggedIn);
    if (req.user.role < AUTH_MIN_ROLE[level]) throw new ApiError(403, MSG.forbidden);
    // Root on its first start's password: nothing but reading itself and choosing a new password
    // (signing out is public) until it has done so.
    if (req.user.password_change_required === 1 && !PASSWORD_CHANGE_ROUTES.has(routeKey(req))) {
      throw new ApiError(403, MSG.passwordChangeRequired);
    }
  }
}
