// `npm run docs:api`: writes docs/api.md from the route declarations (http/api-reference/).
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderApiMarkdown } from '../http/api-reference/markdown.js';
import { apiDocument } from '../http/api-reference/openapi.js';

/** docs/api.md of the repository, from src/tools/ and dist/tools/ alike. */
export const API_MARKDOWN_FILE = fileURLToPath(new URL('../../../../docs/api.md', import.meta.url));

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(API_MARKDOWN_FILE, renderApiMarkdown(apiDocument()));
  process.stdout.write(`wrote ${API_MARKDOWN_FILE}\n`);
}
