// `npm run bench`: throughput and latency of (a) the mock upstream directly, (b) a minimal undici
// pass-through proxy in front of it and (c) Sluice's full relay path in front of it, on loopback.
// Every target runs in its own process; the run is bounded and stops by itself. Results are printed and
// written into bench/README.md between the result markers.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sequential, throughput } from './lib/load.js';
import { memoryOf, startListening, stop } from './lib/processes.js';
import { renderResults } from './lib/report.js';
import { startSluice } from './lib/sluice.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const number = (name, fallback) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  return value;
};
const config = {
  duration: number('BENCH_DURATION', 10),
  warmup: number('BENCH_WARMUP', 2),
  connections: number('BENCH_CONNECTIONS', 50),
  sequential: number('BENCH_SEQUENTIAL', 2000),
  sluiceLogLevel: process.env.BENCH_SLUICE_LOG_LEVEL ?? 'warn',
  // e.g. "--cpu-prof --cpu-prof-dir=/tmp/sluice-profile" to see where the relay spends its time.
  sluiceNodeArgs: (process.env.BENCH_SLUICE_NODE_ARGS ?? '').split(' ').filter(Boolean),
  writeReadme: process.env.BENCH_NO_README !== '1',
};

const MODEL = 'gpt-4o-mini';
const UPSTREAM_KEY = 'sk-bench-upstream';
const PATH = '/v1/chat/completions';
// JSON: a short echo reply. Stream: 50 content chunks, the mock's directive travelling in the message.
const BODIES = {
  json: JSON.stringify({
    model: MODEL,
    messages: [{ role: 'user', content: 'Write one short sentence about rivers.' }],
  }),
  stream: JSON.stringify({
    model: MODEL,
    stream: true,
    messages: [{ role: 'user', content: 'Write a paragraph about rivers. [[mock:{"reply_tokens":50}]]' }],
  }),
};

const headersFor = (key) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' });

/** One request of each kind; says what is wrong when the target does not relay properly. */
async function probe(url, key) {
  const json = await fetch(url + PATH, { method: 'POST', headers: headersFor(key), body: BODIES.json });
  const jsonText = await json.text();
  if (json.status !== 200 || !jsonText.includes('"choices"')) {
    return `POST ${PATH} answered ${json.status}: ${jsonText.slice(0, 200)}`;
  }
  const stream = await fetch(url + PATH, { method: 'POST', headers: headersFor(key), body: BODIES.stream });
  const streamText = await stream.text();
  if (stream.status !== 200 || !streamText.includes('data: [DONE]')) {
    return `the streamed POST ${PATH} answered ${stream.status}: ${streamText.slice(0, 200)}`;
  }
  return undefined;
}

function writeReadme(section) {
  const file = join(here, 'README.md');
  const text = readFileSync(file, 'utf8');
  const start = '<!-- results:start -->';
  const end = '<!-- results:end -->';
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from < 0 || to < from) throw new Error('bench/README.md has lost its result markers');
  writeFileSync(file, `${text.slice(0, from + start.length)}\n\n${section}\n\n${text.slice(to)}`);
}

async function main() {
  const loadAtStart = loadavg()[0];
  const mockCli = join(root, 'packages/mock-upstream/dist/cli.js');
  if (!existsSync(mockCli)) throw new Error('packages/mock-upstream is not built: run `npm run bench`');
  const running = [];
  let sluice = { available: false, reason: 'not started' };
  try {
    const mock = await startListening('mock upstream', mockCli, { PORT: '0' });
    running.push(mock);
    const pass = await startListening('pass-through', join(here, 'passthrough.js'), { UPSTREAM: mock.url });
    running.push(pass);
    sluice = await startSluice({
      root,
      upstreamUrl: mock.url,
      upstreamKey: UPSTREAM_KEY,
      model: MODEL,
      logLevel: config.sluiceLogLevel,
      nodeArgs: config.sluiceNodeArgs,
    });
    if (sluice.proc) running.push(sluice.proc);
    if (sluice.available) {
      const problem = await probe(sluice.url, sluice.token);
      if (problem) sluice = { ...sluice, available: false, reason: problem };
    }
    console.log(
      sluice.available ? `Sluice relay on ${sluice.url}` : `Sluice relay not available: ${sluice.reason}`,
    );

    const targets = [
      { target: 'direct', url: mock.url, key: UPSTREAM_KEY },
      { target: 'pass-through', url: pass.url, key: UPSTREAM_KEY },
      ...(sluice.available ? [{ target: 'sluice', url: sluice.url, key: sluice.token }] : []),
    ];
    const memoryBefore = sluice.available ? memoryOf(sluice.proc.child.pid) : undefined;

    const throughputRows = [];
    for (const mode of ['json', 'stream']) {
      for (const { target, url, key } of targets) {
        const load = {
          url,
          path: PATH,
          headers: headersFor(key),
          body: BODIES[mode],
          connections: config.connections,
        };
        await throughput({ ...load, duration: config.warmup });
        const row = { target, mode, ...(await throughput({ ...load, duration: config.duration })) };
        console.log(
          `${target.padEnd(12)} ${mode.padEnd(6)} ${row.rps.toFixed(0).padStart(7)} req/s  failed ${row.failed}`,
        );
        throughputRows.push(row);
      }
    }

    // The load generator's own HTTP client is cold until now; warm it on the mock before measuring anything.
    await sequential({
      url: mock.url,
      path: PATH,
      headers: headersFor(UPSTREAM_KEY),
      body: BODIES.json,
      count: 1,
      warmup: 3000,
    });
    const latencyRows = [];
    for (const { target, url, key } of targets) {
      const shared = { url, path: PATH, headers: headersFor(key), count: config.sequential, warmup: 1000 };
      const json = await sequential({ ...shared, body: BODIES.json });
      const stream = await sequential({ ...shared, body: BODIES.stream });
      if (json.failed + stream.failed > 0)
        console.warn(`${target}: ${json.failed + stream.failed} sequential requests failed`);
      latencyRows.push({ target, json, stream });
    }

    const memory = sluice.available
      ? { before: memoryBefore, after: memoryOf(sluice.proc.child.pid) }
      : undefined;
    const section = renderResults({
      config,
      throughput: throughputRows,
      latency: latencyRows,
      memory,
      sluice,
      date: new Date().toISOString().slice(0, 10),
      loadAtStart,
    });
    console.log(`\n${section}\n`);
    if (config.writeReadme) writeReadme(section);
  } finally {
    await Promise.all(running.map(stop));
    if (sluice.dir) rmSync(sluice.dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
