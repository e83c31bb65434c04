// docs/api.md: the OpenAPI document rendered for reading — per section a table of its routes, then
// each route with its auth, parameters, body fields and answer. Written by `npm run docs:api`; a test
// fails while the checked-in file differs from what this renders.
import type { JsonSchema } from './route-doc.js';
import type {
  OpenApiDocument,
  OpenApiMedia,
  OpenApiOperation,
  OpenApiParameter,
  OpenApiPathItem,
  OpenApiResponse,
  OperationKey,
} from './openapi.js';

const METHODS: readonly OperationKey[] = ['get', 'post', 'put', 'delete'];

const AUTH_LABELS: Record<OpenApiOperation['x-auth'], string> = {
  public: 'none',
  user: 'signed in (role 1 or above)',
  admin: 'admin (role 10 or above)',
  root: 'super admin (role 100)',
  token: 'a Sluice token key',
};

/** Numbers past these bounds only say "any safe integer". */
const SAFE = Number.MAX_SAFE_INTEGER;

const isSchema = (value: unknown): value is JsonSchema => typeof value === 'object' && value !== null;
const schemasIn = (value: unknown): JsonSchema[] => (Array.isArray(value) ? value.filter(isSchema) : []);
const cell = (value: string): string => value.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const code = (value: string): string => `\`${value}\``;

/** A short type expression: `TokenView[]`, `string | null`, `Page<LogItem>`. */
export function typeOf(schema: JsonSchema): string {
  if (typeof schema.$ref === 'string') return schema.$ref.slice(schema.$ref.lastIndexOf('/') + 1);
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join(' | ');
  const alternatives = schemasIn(schema.oneOf ?? schema.anyOf);
  if (alternatives.length > 0) return alternatives.map(typeOf).join(' | ');
  const properties = isSchema(schema.properties) ? schema.properties : {};
  if (typeof schema.title === 'string') {
    const items = properties.items;
    return isSchema(items) && isSchema(items.items)
      ? `${schema.title}<${typeOf(items.items)}>`
      : schema.title;
  }
  const types = Array.isArray(schema.type) ? schema.type : schema.type === undefined ? [] : [schema.type];
  if (types.length === 0) return 'any';
  return types
    .map((type) => {
      if (type === 'array') return `${isSchema(schema.items) ? typeOf(schema.items) : 'any'}[]`;
      if (type === 'object' && isSchema(schema.additionalProperties)) {
        return `{[key]: ${typeOf(schema.additionalProperties)}}`;
      }
      if (type === 'object' && Object.keys(properties).length > 0)
        return `{${Object.keys(properties).join(', ')}}`;
      return String(type);
    })
    .join(' | ');
}

/** What a field's schema demands beyond its type. */
function constraints(schema: JsonSchema): string[] {
  const said: string[] = [];
  const n = (key: string) =>
    typeof schema[key] === 'number' && Math.abs(schema[key]) < SAFE ? schema[key] : undefined;
  const [minLength, maxLength] = [n('minLength'), n('maxLength')];
  if (minLength !== undefined && maxLength !== undefined) said.push(`${minLength}–${maxLength} characters`);
  else if (maxLength !== undefined) said.push(`at most ${maxLength} characters`);
  else if (minLength !== undefined && minLength > 0) said.push('not empty');
  const [minimum, maximum] = [n('minimum'), n('maximum')];
  if (minimum !== undefined) said.push(`≥ ${minimum}`);
  if (maximum !== undefined) said.push(`≤ ${maximum}`);
  const [minItems, maxItems] = [n('minItems'), n('maxItems')];
  if (minItems !== undefined) said.push(`at least ${minItems} item${minItems === 1 ? '' : 's'}`);
  if (maxItems !== undefined) said.push(`at most ${maxItems} items`);
  if (typeof schema.pattern === 'string') said.push(`pattern ${code(schema.pattern)}`);
  if (schema.default !== undefined) said.push(`default ${code(JSON.stringify(schema.default))}`);
  return said;
}

/** A field's description and the rules its schema states, as sentences. */
function notesOf(schema: JsonSchema, description?: string): string {
  const said = description ?? (typeof schema.description === 'string' ? schema.description : '');
  const rules = constraints(schema).join(', ');
  const sentence = rules === '' ? '' : `${rules.charAt(0).toUpperCase()}${rules.slice(1)}.`;
  return [said, sentence].filter((part) => part !== '').join(' ');
}

function parameterTable(parameters: readonly OpenApiParameter[]): string[] {
  return [
    '| Parameter | In | Type | Required | Notes |',
    '|---|---|---|---|---|',
    ...parameters.map(
      (p) =>
        `| ${code(p.name)} | ${p.in} | ${cell(code(typeOf(p.schema)))} | ${p.required ? 'yes' : 'no'} | ${cell(notesOf(p.schema, p.description))} |`,
    ),
  ];
}

function fieldTable(object: JsonSchema): string[] {
  const properties = isSchema(object.properties) ? object.properties : {};
  const required = new Set(Array.isArray(object.required) ? object.required : []);
  const rows = Object.entries(properties).flatMap(([name, field]) =>
    isSchema(field)
      ? [
          `| ${code(name)} | ${cell(code(typeOf(field)))} | ${required.has(name) ? 'yes' : 'no'} | ${cell(notesOf(field))} |`,
        ]
      : [],
  );
  if (rows.length === 0) return ['An object.'];
  return ['| Field | Type | Required | Notes |', '|---|---|---|---|', ...rows];
}

function bodySection(body: NonNullable<OpenApiOperation['requestBody']>, reference?: string): string[] {
  const [contentType = 'application/json', media = {}] = Object.entries(body.content)[0] ?? [];
  const schema = media.schema ?? {};
  const heading = `**Body** (${code(contentType)}${body.required ? '' : ', optional'}):`;
  const alternatives = schemasIn(schema.oneOf);
  if (alternatives.length > 0) {
    return [
      heading,
      ...alternatives.flatMap((alternative, i) => [
        '',
        `*${typeof alternative.title === 'string' ? alternative.title : `Form ${i + 1}`}:*`,
        '',
        ...fieldTable(alternative),
      ]),
    ];
  }
  if (schema.type === 'object' && isSchema(schema.properties)) return [heading, '', ...fieldTable(schema)];
  const said = typeof schema.description === 'string' ? schema.description : typeOf(schema);
  return [`${heading} ${reference ? `${said.replace(/\.$/, '')} ([reference](${reference})).` : said}`];
}

const inline = (
  response: OpenApiResponse | undefined,
): { description: string; content?: Record<string, OpenApiMedia> } =>
  response && 'description' in response ? response : { description: '' };

function answerSection(op: OpenApiOperation): string[] {
  const ok = inline(op.responses['200']);
  const [contentType = '', media = {}] = Object.entries(ok.content ?? {})[0] ?? [];
  const properties = isSchema(media.schema?.properties) ? media.schema.properties : undefined;
  if (properties && isSchema(properties.data) && 'success' in properties) {
    const data = properties.data;
    const extra = Object.entries(properties).filter(
      ([name]) => !['success', 'message', 'data'].includes(name),
    );
    const about = (schema: JsonSchema) =>
      typeof schema.description === 'string' ? ` — ${schema.description.replace(/\.$/, '')}` : '';
    const lines = [`**Answer:** the envelope; ${code('data')}: ${code(typeOf(data))}${about(data)}`];
    for (const [name, field] of extra) {
      if (isSchema(field)) lines.push(`Beside it: ${code(name)} (${code(typeOf(field))})${about(field)}`);
    }
    return [`${lines.join('. ')}.`];
  }
  if (op.externalDocs) {
    const types = Object.keys(ok.content ?? {})
      .map(code)
      .join(' or ');
    const errors = inline(op.responses.default).description;
    const said = ok.description.replace(/\.$/, '');
    return [`**Answer:** ${said} (${types}; [reference](${op.externalDocs.url})). **Errors:** ${errors}`];
  }
  const schema = media.schema ? ` ${code(typeOf(media.schema))}` : '';
  return [`**Answer:** ${code(contentType)}${schema}: ${ok.description}`];
}

function operationSection(
  method: OperationKey,
  path: string,
  item: OpenApiPathItem,
  op: OpenApiOperation,
  aliases: string[],
): string[] {
  const lines = [`#### ${code(`${method.toUpperCase()} ${path}`)}`, '', `${op.summary}.`];
  if (op.description) lines.push('', op.description);
  const also = [...aliases.map((alias) => `at ${code(alias)}`), ...prefixesOf(item)];
  const auth = `**Auth:** ${AUTH_LABELS[op['x-auth']]}${op['x-rate-limited'] ? '; rate-limited' : ''}.`;
  lines.push('', also.length > 0 ? `${auth} Also served ${also.join(', ')}.` : auth);
  if (op.parameters && op.parameters.length > 0) lines.push('', ...parameterTable(op.parameters));
  if (op.requestBody) lines.push('', ...bodySection(op.requestBody, op.externalDocs?.url));
  lines.push('', ...answerSection(op));
  return lines;
}

/** `under /fast (fast mode), /turbo (turbo mode) and /relax (relax mode)` for a path item's other servers. */
function prefixesOf(item: OpenApiPathItem): string[] {
  const named = (item.servers ?? [])
    .filter((server) => server.url !== '/')
    .map((server) => `${code(server.url)}${server.description ? ` (${server.description})` : ''}`);
  if (named.length === 0) return [];
  const last = named.pop() ?? '';
  return [`under ${named.length > 0 ? `${named.join(', ')} and ${last}` : last}`];
}

interface Listed {
  method: OperationKey;
  path: string;
  item: OpenApiPathItem;
  op: OpenApiOperation;
  aliases: string[];
}

/** The operations of a tag in document order, each with the paths of its alias copies. */
function operationsOf(document: OpenApiDocument, tag: string): Listed[] {
  const listed: Listed[] = [];
  const aliasesOf = new Map<string, string[]>();
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op || op.tags[0] !== tag) continue;
      const aliasOf = op['x-alias-of'];
      if (aliasOf) aliasesOf.set(aliasOf, [...(aliasesOf.get(aliasOf) ?? []), path]);
      else listed.push({ method, path, item, op, aliases: [] });
    }
  }
  return listed.map((l) => ({ ...l, aliases: aliasesOf.get(`${l.method.toUpperCase()} ${l.path}`) ?? [] }));
}

export function renderApiMarkdown(document: OpenApiDocument): string {
  const lines = [
    `# ${document.info.title} reference`,
    '',
    '<!-- Generated from packages/server/src/http/api-reference/ by `npm run docs:api`. Do not edit by hand. -->',
    '',
    `Version ${document.info.version}. Every Sluice serves this reference as an OpenAPI 3.1 document at ${code('GET /api/openapi.json')}, for tools that read it. In the tables, *Auth* is who may call a route: ${code('public')} anyone, ${code('user')} any signed-in user, ${code('admin')} admins, ${code('root')} the super admin, ${code('token')} a caller with a Sluice token key.`,
    '',
    document.info.description,
  ];
  const descriptions = new Map(document.tags.map((t) => [t.name, t.description]));
  for (const group of document['x-tagGroups']) {
    lines.push('', `## ${group.name}`);
    for (const tag of group.tags) {
      const ops = operationsOf(document, tag);
      lines.push('', `### ${tag}`, '', descriptions.get(tag) ?? '', '');
      lines.push('| Method | Path | Auth | Summary |', '|---|---|---|---|');
      for (const { method, path, op } of ops) {
        lines.push(
          `| ${method.toUpperCase()} | ${cell(code(path))} | ${op['x-auth']} | ${cell(op.summary)} |`,
        );
      }
      for (const { method, path, item, op, aliases } of ops) {
        lines.push('', ...operationSection(method, path, item, op, aliases));
      }
    }
  }
  return `${lines.join('\n')}\n`;
}
