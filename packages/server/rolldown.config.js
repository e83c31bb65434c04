// The server as operators run it (`npm start`, the Dockerfile, the systemd unit): dist/main.js and the
// modules it imports bundled into one minified file, dist/sluice.js, that Node parses once. `npm run
// dev` and the tools keep running tsc's module tree in dist/. Measured ready and before any call (both
// after the memory-reducing collection in main.ts): 81 MiB resident against 94 to 95 for the module
// tree, and ready in about 0.4 s instead of 0.7 to 0.8.
//
// Where the savings come from: V8 keeps the source of every module it loaded for as long as the
// process runs, and parsing costs native memory that glibc keeps afterwards. The module tree is about
// 1,500 files and 8 MB of source (half of it stored as two-byte strings because a comment or a message
// holds a character beyond Latin-1); the bundle is one file of about 2 MB, ASCII only, without what
// nothing calls (zod's 40 locales, most of kysely's dialect code).
//
// Names are shortened too (`mangle`): without it the same bundle started 16 MiB higher in every run
// (97 against 81 MiB, the collection included; why is not known). Stack traces then name minified
// functions: dist/sluice.js.map maps them back, and `NODE_OPTIONS=--enable-source-maps` makes Node
// apply it (which costs memory; for debugging only).
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'rolldown';

/** Native addons: loaded from node_modules as they are. */
const NATIVE = ['better-sqlite3', '@node-rs/bcrypt'];
/**
 * Packages the server imports only when a feature needs them (the PostgreSQL and MySQL drivers, Redis
 * for cluster mode, mail, the tokenizer, the AWS and Google signers): left in node_modules, so a
 * server that never uses them never parses them.
 */
const ON_DEMAND = [
  'pg',
  'mysql2',
  'ioredis',
  'nodemailer',
  'gpt-tokenizer',
  'jose',
  '@smithy/',
  '@aws-crypto/',
];

const external = (id) =>
  id.startsWith('node:') ||
  [...NATIVE, ...ON_DEMAND].some((name) =>
    name.endsWith('/') ? id.startsWith(name) : id === name || id.startsWith(`${name}/`),
  );

export default defineConfig({
  input: fileURLToPath(new URL('dist/main.js', import.meta.url)),
  platform: 'node',
  external,
  output: {
    dir: fileURLToPath(new URL('dist', import.meta.url)),
    entryFileNames: 'sluice.js',
    chunkFileNames: 'sluice-[name].js',
    format: 'esm',
    sourcemap: true,
    // ASCII only: one character beyond Latin-1 would make V8 store the whole source as two bytes a character.
    minify: { compress: true, mangle: true, codegen: { asciiOnly: true } },
  },
});
