// Helpers for the suites that walk every registered /api route (role matrix, no leaks), so they
// follow the routes as features add them instead of keeping their own list.
import type { Endpoints } from '../app-context.js';
import { DEFAULT_ENDPOINTS } from '../app-context.js';
import type { RouteEntry } from '../http/auth-guard.js';
import { createTestApp } from './test-app.js';

/** The app's route table, read once from a throw-away SQLite app (it does not depend on the dialect). */
export async function readRouteTable(): Promise<RouteEntry[]> {
  const t = await createTestApp();
  try {
    return [...t.app.routeTable].sort(
      (a, b) => a.url.localeCompare(b.url) || a.method.localeCompare(b.method),
    );
  } finally {
    await t.close();
  }
}

/** `/api/user/:id` → `/api/user/7`; wildcards become a harmless segment. */
export const fillPathParams = (url: string, id: number | string): string =>
  url.replace(/:[A-Za-z0-9_]+(\([^)]*\))?/g, String(id)).replace(/\*/g, 'x');

/**
 * Every outside service pointed at a closed local port: a route that reaches out with an empty
 * call fails fast instead of touching the internet.
 */
export function unreachableEndpoints(): Endpoints {
  const endpoints: Endpoints = { ...DEFAULT_ENDPOINTS };
  for (const key of Object.keys(endpoints) as Array<keyof Endpoints>) endpoints[key] = 'http://127.0.0.1:9';
  return endpoints;
}

/** Methods that carry a JSON body in an "empty call". */
export const hasBody = (method: string): boolean => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(method);
