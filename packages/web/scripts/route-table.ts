// Reads the console's route table at build time, from the features' routes.ts files in the shape
// app/route-types.ts describes: each route's path, its access level and the modules its page loader
// imports, so that index.html can preload a page's chunks before the router asks for them.
import { readFileSync } from 'node:fs';
import { parseSync } from 'vite';

export interface RouteSource {
  path: string;
  access: string;
  /** Module specifiers the page loader imports, as written (e.g. './tokens-page'). */
  imports: string[];
}

interface AstNode {
  type: string;
  [field: string]: unknown;
}

const isNode = (value: unknown): value is AstNode =>
  typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';

function* walk(value: unknown): Generator<AstNode> {
  if (Array.isArray(value)) {
    for (const item of value) yield* walk(item);
    return;
  }
  if (!isNode(value)) return;
  yield value;
  for (const child of Object.values(value)) if (typeof child === 'object') yield* walk(child);
}

const stringLiteral = (node: unknown): string | undefined =>
  isNode(node) && node.type === 'Literal' && typeof node.value === 'string' ? node.value : undefined;

const identifierName = (node: unknown): string | undefined =>
  isNode(node) && node.type === 'Identifier' && typeof node.name === 'string' ? node.name : undefined;

/** An object literal's properties by key (plain keys only). */
function propertiesOf(node: AstNode): Map<string, unknown> {
  const properties = new Map<string, unknown>();
  const list = Array.isArray(node.properties) ? node.properties : [];
  for (const property of list) {
    if (!isNode(property) || property.type !== 'Property') continue;
    const key = identifierName(property.key) ?? stringLiteral(property.key);
    if (key !== undefined) properties.set(key, property.value);
  }
  return properties;
}

/** Every route object (one with a string `path` and a `page`) in a routes.ts file. */
export function readRoutes(file: string): RouteSource[] {
  const { program, errors } = parseSync(file, readFileSync(file, 'utf8'), { lang: 'ts' });
  if (errors.length > 0) throw new Error(`${file}: ${errors[0]?.message ?? 'cannot be parsed'}`);
  // `page: editPage` refers to a constant declared in the same file.
  const constants = new Map<string, unknown>();
  for (const node of walk(program.body)) {
    const name = node.type === 'VariableDeclarator' ? identifierName(node.id) : undefined;
    if (name !== undefined) constants.set(name, node.init);
  }
  const importsOf = (loader: unknown): string[] => {
    const name = identifierName(loader);
    const body = name === undefined ? loader : constants.get(name);
    return [...walk(body)]
      .filter((node) => node.type === 'ImportExpression')
      .map((node) => stringLiteral(node.source))
      .filter((specifier): specifier is string => specifier !== undefined);
  };
  const routes: RouteSource[] = [];
  for (const node of walk(program.body)) {
    if (node.type !== 'ObjectExpression') continue;
    const properties = propertiesOf(node);
    const path = stringLiteral(properties.get('path'));
    if (path === undefined || !properties.has('page')) continue;
    routes.push({
      path,
      access: stringLiteral(properties.get('access')) ?? 'user',
      imports: importsOf(properties.get('page')),
    });
  }
  return routes;
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A regular expression (source, matched case-insensitively as the router does) for a route path:
 *  `:name` is one segment, a trailing `/*` any rest. */
export function pathPattern(path: string): string {
  const splat = path.endsWith('/*');
  const segments = (splat ? path.slice(0, -2) : path)
    .split('/')
    .filter(Boolean)
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : escapeRegExp(segment)));
  const prefix = segments.length > 0 ? `/${segments.join('/')}` : '';
  return `^${prefix}${splat ? '(?:/.*)?' : '/?'}$`;
}
