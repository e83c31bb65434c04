// `npm run dev`: the server rebuilt and restarted on every source change, and the console served by
// Vite with hot reload (http://localhost:5173, which forwards API and relay calls to the server on
// PORT, default 3000). Ctrl-C stops all three.
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = (name) => fileURLToPath(new URL(`../node_modules/.bin/${name}`, import.meta.url));

// The server's first build, so the watcher below has something to start.
const first = spawnSync(bin('tsc'), ['-b', 'packages/server', 'packages/mock-upstream'], {
  cwd: root,
  stdio: 'inherit',
});
if (first.status !== 0) process.exit(first.status ?? 1);

const children = [
  spawn(bin('tsc'), ['-b', '-w', '--preserveWatchOutput', 'packages/server', 'packages/mock-upstream'], {
    cwd: root,
    stdio: 'inherit',
  }),
  spawn(process.execPath, ['--watch', 'packages/server/dist/main.js'], { cwd: root, stdio: 'inherit' }),
  spawn(bin('vite'), [], { cwd: `${root}packages/web`, stdio: 'inherit' }),
];

let stopping = false;
const stop = (code) => {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  process.exitCode = code;
};
for (const child of children) child.on('exit', (code) => stop(code ?? 1));
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
