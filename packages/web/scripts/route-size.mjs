// Reports the gzip size and file count of the JavaScript a page loads on a cold visit: the scripts
// index.html names plus the page's chunk and its static imports (chunks loaded later on demand, such
// as the charts, are not counted). Run after `vite build`:
//   node packages/web/scripts/route-size.mjs [page-module-substring ...]
// The e2e spec e2e/first-load.spec.ts measures the same pages in Chromium.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

// WEB_DIST, as for the server, points at another build.
const dist = process.env.WEB_DIST ?? join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const readJson = (file) => JSON.parse(readFileSync(join(dist, '.vite', file), 'utf8'));
const manifest = readJson('manifest.json');
// Which chunk holds each of the console's modules (scripts/module-map.ts): pages grouped into a
// shared chunk have no manifest entry of their own.
const chunkOfModule = readJson('modules.json');

const keyOfFile = new Map(Object.entries(manifest).map(([key, chunk]) => [chunk.file, key]));

function closure(key, seen = new Set()) {
  const chunk = manifest[key];
  if (!chunk || seen.has(key)) return seen;
  seen.add(key);
  for (const dep of chunk.imports ?? []) closure(dep, seen);
  return seen;
}

const files = (keys) =>
  [...keys].map((key) => manifest[key].file).filter((file) => existsSync(join(dist, file)));
const gzip = (file) => gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
const sum = (list) => list.reduce((total, file) => total + gzip(file), 0);
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} kB`;
const say = (line) => process.stdout.write(`${line}\n`);

// What index.html loads (Vite drops an entry chunk that only imports others and names those instead).
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const htmlFiles = [...html.matchAll(/<(?:script|link)[^>]*(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map(
  (m) => m[1],
);
const entry = new Set();
for (const file of htmlFiles) closure(keyOfFile.get(file), entry);
const entryFiles = [...new Set([...htmlFiles, ...files(entry)])];
const pages = process.argv.slice(2);
const targets =
  pages.length > 0 ? pages : ['login-page', 'home-page', 'register-page', 'tokens-page', 'dashboard-page'];

say(`index.html (every page): ${kb(sum(entryFiles))} gzip in ${entryFiles.length} files`);
for (const target of targets) {
  const module = Object.keys(chunkOfModule).find((path) => path.includes(target));
  const key = module && keyOfFile.get(chunkOfModule[module]);
  if (!key) {
    say(`${target}: no such page`);
    continue;
  }
  const all = [...new Set([...entryFiles, ...files(closure(key))])];
  say(`${target}: ${kb(sum(all))} gzip in ${all.length} files (page in ${manifest[key].file})`);
}
