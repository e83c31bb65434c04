// Entry point, run inside a network namespace with only loopback (relay.agent-clis.test.ts starts it):
// the mock upstream and Sluice with one channel per vendor format, each agent CLI run against Sluice
// through a request log, and what happened written as JSON to the file named by the first argument.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMockUpstream } from '@sluice/mock-upstream';
import type { MockUpstream } from '@sluice/mock-upstream';
import { createTestApp } from '../test-app.js';
import { addChannel, addToken, listen, setOptions } from '../relay-kit.js';
import { prepareRun } from './agent-clis.js';
import type { AgentRun, Invocation } from './agent-clis.js';
import { startRequestLog } from './request-log.js';
import type { LoggedRequest } from './request-log.js';
import { AGENT_RUNS, CHANNELS, CLASSIFIER_REPLY, NOTE_FILE, NOTE_TEXT, PROMPT } from './runs.js';

/** What Sluice sent the mock on the run's behalf. */
export interface UpstreamCall {
  method: string;
  path: string;
  status: number | undefined;
  /** The body carried the note's text: a tool result crossed the relay. */
  carriesNote: boolean;
}

export interface RunReport {
  cli: AgentRun['cli'];
  channel: AgentRun['channel'];
  model: string | undefined;
  tool: string | undefined;
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  durationMs: number;
  stdout: string;
  stderr: string;
  /** What the CLI sent Sluice. */
  requests: LoggedRequest[];
  upstream: UpstreamCall[];
}

/** Generous for a loaded machine; a run against the mock takes one to five seconds. */
const RUN_TIMEOUT_MS = Number(process.env.AGENT_CLI_TIMEOUT_MS ?? 30_000);
const OUTPUT_CHARS = 100_000;

type Outcome = Pick<RunReport, 'exitCode' | 'signal' | 'timedOut' | 'durationMs' | 'stdout' | 'stderr'>;

function execute(invocation: Invocation): Promise<Outcome> {
  const started = Date.now();
  const child = spawn(invocation.command, invocation.args, {
    cwd: invocation.cwd,
    env: invocation.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so a timeout ends the helpers the CLI started too.
    detached: true,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout = (stdout + chunk.toString()).slice(-OUTPUT_CHARS)));
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-OUTPUT_CHARS)));
  let timedOut = false;
  const killGroup = () => {
    try {
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup();
  }, RUN_TIMEOUT_MS);
  return new Promise((resolve) => {
    child.once('close', (exitCode, signal) => {
      clearTimeout(timer);
      killGroup();
      resolve({ exitCode, signal, timedOut, durationMs: Date.now() - started, stdout, stderr });
    });
  });
}

/** The mock's requests since the last reset, as the report shows them. */
const upstreamCalls = (mock: MockUpstream): UpstreamCall[] =>
  mock.requests.map((r) => ({
    method: r.method,
    path: r.path,
    status: r.status,
    carriesNote: JSON.stringify(r.body).includes(NOTE_TEXT),
  }));

/** The classifier answers as asked, whatever the run (reset() forgets standing behaviours). */
const answerClassifier = (mock: MockUpstream) =>
  mock.setBehaviour({ reply: CLASSIFIER_REPLY }, { key: CHANNELS.classifier.key });

async function main(reportPath: string, only: string | undefined): Promise<void> {
  const allGemini = [...CHANNELS.gemini.models, ...CHANNELS.classifier.models];
  const mock = await startMockUpstream({ geminiModels: allGemini });
  const workDir = mkdtempSync(join(tmpdir(), 'sluice-agent-clis-'));
  // Sluice as deployed serves its console at "/" (Claude Code's connection warm-up is a HEAD /).
  const webDist = join(workDir, 'console');
  mkdirSync(webDist);
  writeFileSync(join(webDist, 'index.html'), '<!doctype html><title>Sluice</title>');
  const t = await createTestApp({ config: { webDist } });
  try {
    const models = Object.values(CHANNELS).flatMap((c) => c.models);
    await setOptions(t, {
      ModelRatio: Object.fromEntries(models.map((m) => [m, 1])),
      CompletionRatio: Object.fromEntries(models.map((m) => [m, 4])),
    });
    for (const channel of Object.values(CHANNELS)) {
      await addChannel(t, { ...channel, models: channel.models.join(','), base_url: mock.url });
    }
    answerClassifier(mock);
    const user = await t.createUser({ quota: 500_000_000 });
    const token = await addToken(t, user.id, { remain_quota: 500_000_000 });
    const sluice = await listen(t);

    const reports: RunReport[] = [];
    for (const [index, run] of AGENT_RUNS.entries()) {
      if (only && run.cli !== only) continue;
      const home = join(workDir, `${index}-${run.cli}`);
      mkdirSync(home, { recursive: true });
      writeFileSync(join(home, NOTE_FILE), `${NOTE_TEXT}\n`);
      if (run.tool) {
        // The first chat call on the run's channel (side calls use other channels) gets the tool call.
        const call = { name: run.tool.name, arguments: JSON.stringify(run.tool.arguments(home)) };
        mock.enqueue({ tool_call: call }, { key: CHANNELS[run.channel].key });
      }
      const log = await startRequestLog(sluice);
      try {
        const invocation = prepareRun(run, { baseUrl: log.url, key: token.key, home, prompt: PROMPT });
        const outcome = await execute(invocation);
        reports.push({
          cli: run.cli,
          channel: run.channel,
          model: run.model,
          tool: run.tool?.name,
          ...outcome,
          requests: [...log.requests],
          upstream: upstreamCalls(mock),
        });
      } finally {
        await log.close();
        // A run that never made the call leaves its tool call queued: the next run must not get it.
        mock.reset();
        answerClassifier(mock);
      }
    }
    writeFileSync(reportPath, JSON.stringify(reports, null, 2));
  } finally {
    await t.close();
    await mock.close();
    rmSync(workDir, { recursive: true, force: true });
  }
}

const [reportPath, only] = process.argv.slice(2);
if (!reportPath) throw new Error('usage: run-agent-clis.ts <report.json> [claude-code|gemini-cli|codex]');
await main(reportPath, only);
