// The agent CLIs people point at gateways (Claude Code, Gemini CLI, Codex CLI), run as a user runs them
// against Sluice: each once on a channel of its own format and once on a converted one, with a tool
// call and its result crossing the relay. Every request a CLI sends must be served. The CLIs try to
// reach their vendors on start, so everything runs in a network namespace with only loopback up
// (test-support/agent-clis/run-agent-clis.ts); where one cannot be made (not root, no unshare) the
// suite is skipped and says why.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunReport } from '../test-support/agent-clis/run-agent-clis.js';
import { AGENT_RUNS } from '../test-support/agent-clis/runs.js';

const REGISTER_LOADER = fileURLToPath(new URL('../test-support/ts-loader/register.mjs', import.meta.url));
const RUNNER = fileURLToPath(new URL('../test-support/agent-clis/run-agent-clis.ts', import.meta.url));
/** Seven runs of one to five seconds each, plus starting Sluice from its sources; bounded whatever happens. */
const RUNNER_TIMEOUT_MS = 150_000;

/** Why a namespace with only loopback cannot be made here, or undefined when it can. */
function sandboxUnavailable(): string | undefined {
  const probe = spawnSync('unshare', ['--net', 'sh', '-c', 'ip link set lo up'], { encoding: 'utf8' });
  if (probe.error) return `unshare cannot be run: ${probe.error.message}`;
  if (probe.status !== 0) {
    return `unshare --net with loopback up failed (root and iproute2 needed): ${probe.stderr.trim()}`;
  }
  return undefined;
}

const unavailable = sandboxUnavailable();
if (unavailable) console.warn(`agent CLI suite skipped: ${unavailable}`);

function runSandboxed(reportPath: string): Promise<{ code: number | null; stderr: string }> {
  const { NODE_OPTIONS: _options, ...env } = process.env;
  const command = `ip link set lo up && exec "${process.execPath}" --import "${REGISTER_LOADER}" "${RUNNER}" "${reportPath}"`;
  const child = spawn('unshare', ['--net', 'sh', '-c', command], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-8000)));
  const timer = setTimeout(() => child.kill('SIGKILL'), RUNNER_TIMEOUT_MS);
  return new Promise((resolve) => {
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

const NAMES = { 'claude-code': 'Claude Code', 'gemini-cli': 'Gemini CLI', codex: 'Codex CLI' } as const;
const OWN_FORMAT = { 'claude-code': 'anthropic', 'gemini-cli': 'gemini', codex: 'openai' } as const;

const title = (run: (typeof AGENT_RUNS)[number]) =>
  `${NAMES[run.cli]} with ${run.model ?? 'its default model'} on the ${run.channel} channel ` +
  `(${OWN_FORMAT[run.cli] === run.channel ? 'forwarded' : 'converted'})` +
  (run.tool ? `, calling its ${run.tool.name} tool` : '');

describe.skipIf(unavailable)('agent CLIs through Sluice', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sluice-agent-cli-report-'));
  let reports: RunReport[] = [];
  let failure = '';

  beforeAll(async () => {
    const reportPath = join(dir, 'report.json');
    const { code, stderr } = await runSandboxed(reportPath);
    if (code === 0) reports = JSON.parse(readFileSync(reportPath, 'utf8')) as RunReport[];
    else failure = `the runner exited ${code}: ${stderr}`;
  }, RUNNER_TIMEOUT_MS + 10_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each(AGENT_RUNS.map((run, index) => [title(run), index] as const))('%s', (_title, index) => {
    expect(failure).toBe('');
    const report = reports[index];
    if (!report) throw new Error(`no report for run ${index}`);
    const said = `stdout:\n${report.stdout.slice(-2000)}\nstderr:\n${report.stderr.slice(-3000)}`;
    expect({ exitCode: report.exitCode, timedOut: report.timedOut }, said).toEqual({
      exitCode: 0,
      timedOut: false,
    });
    // The mock's deterministic answer, as the CLI printed it.
    expect(report.stdout, said).toContain('You said:');

    // Every request the CLI sent was served, side calls included.
    expect(report.requests.length).toBeGreaterThan(0);
    const refused = report.requests.filter((r) => r.status < 200 || r.status >= 400);
    expect(refused, JSON.stringify(report.requests, null, 2)).toEqual([]);
    expect(report.upstream.filter((u) => u.status !== 200)).toEqual([]);

    if (report.tool) {
      // The tool call reached the CLI, which ran the tool; its result reached the upstream.
      expect(
        report.upstream.some((u) => u.carriesNote),
        JSON.stringify(report.upstream),
      ).toBe(true);
    }
  });
});
