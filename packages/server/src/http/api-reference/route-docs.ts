// Every route's reference declaration, in the order the reference lists them within each section.
import { CONSOLE_ACCOUNT_DOCS } from './console-account-docs.js';
import { CONSOLE_ADMIN_DOCS } from './console-admin-docs.js';
import { CHANNEL_DOCS } from './console-channel-docs.js';
import { CONSOLE_RECORDS_DOCS } from './console-records-docs.js';
import { RELAY_DOCS } from './relay-docs.js';
import type { Alias, RouteDoc } from './route-doc.js';

export const ROUTE_DOCS: readonly RouteDoc[] = [
  ...CONSOLE_ACCOUNT_DOCS,
  ...CONSOLE_ADMIN_DOCS,
  ...CHANNEL_DOCS,
  ...CONSOLE_RECORDS_DOCS,
  ...RELAY_DOCS,
];

/** `/api/token/{id}` → `/api/token/:id`, the path as Fastify registers it. */
export const fastifyPath = (path: string): string => path.replace(/\{([A-Za-z0-9_]+)\}/g, ':$1');

const aliasPath = (alias: Alias): string => (typeof alias === 'string' ? alias : alias.path);
const aliasRoute = (alias: Alias): string => (typeof alias === 'string' ? fastifyPath(alias) : alias.route);

/** The documented paths of a declaration: its own, then its aliases'. */
export const documentedPaths = (doc: RouteDoc): string[] => [doc.path, ...(doc.aliases ?? []).map(aliasPath)];

/** The routes a declaration stands for, as registered: `GET /api/token/:id`, prefixes and aliases included. */
export function registeredRoutes(doc: RouteDoc): string[] {
  const urls = [doc.route ?? fastifyPath(doc.path), ...(doc.aliases ?? []).map(aliasRoute)];
  const prefixed = ['', ...(doc.prefixes ?? [])].flatMap((prefix) => urls.map((url) => `${prefix}${url}`));
  return prefixed.map((url) => `${doc.method} ${url}`);
}
