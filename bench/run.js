// `npm run bench`: throughput and latency of (a) the mock upstream directly, (b) a minimal undici
// pass-through proxy in front of it and (c) Sluice's full relay path in front of it, on loopback, for
// OpenAI Chat and Anthropic Messages clients on an upstream of their own format, and for Sluice's
// converted paths (an OpenAI client on an Anthropic upstream, an Anthropic client on an OpenAI one).
// Every target runs in its own process; the run is bounded and stops by itself. Results are printed and
// written into bench/README.md between the result markers.
import { existsSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  CLAUDE_MODEL,
  LONG,
  MODEL,
  SHORT,
  UPSTREAM_KEY,
  bearer,
  commonConfig,
  number,
  openAiBodies,
  writeSection,
} from './lib/common.js';
import { sequential, throughput } from './lib/load.js';
import { memoryNowAndSettled, startListening, stop } from './lib/processes.js';
import { renderResults } from './lib/report.js';
import { startSluice } from './lib/sluice.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const config = {
  ...commonConfig(),
  sequential: number('BENCH_SEQUENTIAL', 2000),
  rounds: number('BENCH_ROUNDS', 3),
  // e.g. "--cpu-prof --cpu-prof-dir=/tmp/sluice-profile" to see where the relay spends its time.
  sluiceNodeArgs: (process.env.BENCH_SLUICE_NODE_ARGS ?? '').split(' ').filter(Boolean),
};

const anthropicBodies = (model) => ({
  json: JSON.stringify({ model, max_tokens: 256, messages: [{ role: 'user', content: SHORT }] }),
  stream: JSON.stringify({
    model,
    max_tokens: 256,
    stream: true,
    messages: [{ role: 'user', content: LONG }],
  }),
});

const anthropicHeaders = (key) => ({
  'x-api-key': key,
  'anthropic-version': '2023-06-01',
  'content-type': 'application/json',
});

/**
 * What is measured: a client format on an upstream model. Same-format scenarios run against the mock,
 * the pass-through and Sluice; converted ones only through Sluice, and compare with the pass-through
 * row of the scenario named `baseline` (the same client request relayed without conversion).
 */
const SCENARIOS = [
  {
    name: 'OpenAI → OpenAI',
    path: '/v1/chat/completions',
    headers: bearer,
    bodies: openAiBodies(MODEL),
    end: 'data: [DONE]',
  },
  {
    name: 'Anthropic → Anthropic',
    path: '/v1/messages',
    headers: anthropicHeaders,
    bodies: anthropicBodies(CLAUDE_MODEL),
    end: 'message_stop',
  },
  {
    name: 'OpenAI → Anthropic',
    path: '/v1/chat/completions',
    headers: bearer,
    bodies: openAiBodies(CLAUDE_MODEL),
    end: 'data: [DONE]',
    baseline: 'OpenAI → OpenAI',
  },
  {
    name: 'Anthropic → OpenAI',
    path: '/v1/messages',
    headers: anthropicHeaders,
    bodies: anthropicBodies(MODEL),
    end: 'message_stop',
    baseline: 'Anthropic → Anthropic',
  },
];
const SAME_FORMAT = SCENARIOS[0];

/** One request of each kind per scenario; says what is wrong when the target does not relay properly. */
async function probe(url, key) {
  for (const scenario of SCENARIOS) {
    for (const mode of ['json', 'stream']) {
      const res = await fetch(url + scenario.path, {
        method: 'POST',
        headers: scenario.headers(key),
        body: scenario.bodies[mode],
      });
      const text = await res.text();
      const ok = mode === 'json' ? text.includes('"usage"') : text.includes(scenario.end);
      if (res.status !== 200 || !ok) {
        return `${scenario.name} (${mode}) answered ${res.status}: ${text.slice(0, 200)}`;
      }
    }
  }
  return undefined;
}

const writeReadme = (section) => writeSection(join(here, 'README.md'), 'results', section);

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
      claudeModel: CLAUDE_MODEL,
      logLevel: config.sluiceLogLevel,
      nodeArgs: config.sluiceNodeArgs,
    });
    if (sluice.proc) running.push(sluice.proc);
    // Right after start: the server answers, and no call has reached the relay yet.
    const memoryAtStart = sluice.available ? await memoryNowAndSettled(sluice.proc.child.pid) : undefined;
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
    const memoryBefore = sluice.available ? await memoryNowAndSettled(sluice.proc.child.pid) : undefined;

    // Each row's measured time is taken in `rounds` slices, one per round over all rows, so a row and
    // the row it is compared with are measured close together, and a drift of the machine during the
    // run shows as a spread instead of as a difference between rows.
    const rowOf = new Map();
    for (let round = 0; round < config.rounds; round++) {
      for (const scenario of SCENARIOS) {
        const scenarioTargets = scenario.baseline ? targets.filter((t) => t.target === 'sluice') : targets;
        for (const mode of ['json', 'stream']) {
          for (const { target, url, key } of scenarioTargets) {
            const load = {
              url,
              path: scenario.path,
              headers: scenario.headers(key),
              body: scenario.bodies[mode],
              connections: config.connections,
            };
            if (round === 0) await throughput({ ...load, duration: config.warmup });
            const slice = await throughput({ ...load, duration: config.duration / config.rounds });
            const id = `${scenario.name} ${target} ${mode}`;
            let row = rowOf.get(id);
            if (!row) {
              row = { scenario: scenario.name, baseline: scenario.baseline, target, mode, slices: [] };
              rowOf.set(id, row);
            }
            row.slices.push(slice);
            console.log(
              `round ${round + 1} ${scenario.name.padEnd(22)} ${target.padEnd(12)} ${mode.padEnd(6)} ${slice.rps.toFixed(0).padStart(7)} req/s  failed ${slice.failed}`,
            );
          }
        }
      }
    }

    // The load generator's own HTTP client is cold until now; warm it on the mock before measuring anything.
    await sequential({
      url: mock.url,
      path: SAME_FORMAT.path,
      headers: SAME_FORMAT.headers(UPSTREAM_KEY),
      body: SAME_FORMAT.bodies.json,
      count: 1,
      warmup: 3000,
    });
    const latencyRows = [];
    for (const { target, url, key } of targets) {
      const shared = {
        url,
        path: SAME_FORMAT.path,
        headers: SAME_FORMAT.headers(key),
        count: config.sequential,
        warmup: 1000,
      };
      const json = await sequential({ ...shared, body: SAME_FORMAT.bodies.json });
      const stream = await sequential({ ...shared, body: SAME_FORMAT.bodies.stream });
      if (json.failed + stream.failed > 0)
        console.warn(`${target}: ${json.failed + stream.failed} sequential requests failed`);
      latencyRows.push({ target, json, stream });
    }

    const memory = sluice.available
      ? {
          start: memoryAtStart,
          before: memoryBefore,
          after: await memoryNowAndSettled(sluice.proc.child.pid),
        }
      : undefined;
    const section = renderResults({
      config,
      throughput: [...rowOf.values()],
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
