// Reports the gzip size of the JavaScript a route loads: the entry chunk and its static imports,
// plus the route's page chunk and its static imports. Run after `vite build`:
//   node packages/web/scripts/route-size.mjs [page-module-substring ...]
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'));

function closure(key, seen = new Set()) {
  const chunk = manifest[key];
  if (!chunk || seen.has(key)) return seen;
  seen.add(key);
  for (const dep of chunk.imports ?? []) closure(dep, seen);
  return seen;
}

const gzip = (file) => gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
const say = (line) => process.stdout.write(`${line}\n`);
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} kB`;

const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
const entry = closure(entryKey);
const pages = process.argv.slice(2);
const targets = pages.length > 0 ? pages : ['login-page', 'home-page', 'register-page', 'settings-page'];

const sum = (keys) => [...keys].reduce((total, key) => total + gzip(manifest[key].file), 0);
say(`entry (every route): ${kb(sum(entry))} gzip`);
for (const target of targets) {
  const pageKey = Object.keys(manifest).find((key) => key.includes(target) && manifest[key].isDynamicEntry);
  if (!pageKey) {
    say(`${target}: no such page chunk`);
    continue;
  }
  const all = closure(pageKey, new Set(entry));
  say(`${target}: ${kb(sum(all))} gzip in total (${all.size} chunks)`);
}
