// How a user points each agent CLI at a gateway (Claude Code, Gemini CLI, Codex CLI): the command, the
// environment and the config files of one non-interactive run, with every vendor's telemetry turned off.
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export type AgentCli = 'claude-code' | 'gemini-cli' | 'codex';

export interface AgentRun {
  cli: AgentCli;
  /** The channel (vendor format) that serves the model: the CLI's own format, or one to convert to. */
  channel: 'anthropic' | 'openai' | 'gemini';
  /** The model asked for; none: the CLI's default, as a user who only set the base URL and key gets. */
  model?: string;
  /** How the run authenticates, when the CLI offers a choice (Claude Code: x-api-key or Bearer). */
  auth?: 'api-key' | 'bearer';
  /** A tool of the CLI's own that the upstream calls first (arguments for the run's working directory). */
  tool?: { name: string; arguments: (dir: string) => Record<string, unknown> };
}

export interface Invocation {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
}

interface RunContext {
  /** Sluice as the CLI reaches it: http://127.0.0.1:<port>. */
  baseUrl: string;
  /** A Sluice token key, sk-… */
  key: string;
  /** An empty folder that stands for the user's home and working directory. */
  home: string;
  prompt: string;
}

const require = createRequire(import.meta.url);
const packageFile = (name: string, file: string) =>
  join(dirname(require.resolve(`${name}/package.json`)), file);

/** What a locked-down machine needs from the parent environment (PATH for node, a locale); nothing else. */
function baseEnv(home: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    LANG: 'C.UTF-8',
    HOME: home,
    TMPDIR: join(home, 'tmp'),
    // Plain output, no colours or progress animations in what the test reads.
    NO_COLOR: '1',
    TERM: 'dumb',
    CI: 'true',
  };
}

function writeFile(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/**
 * Claude Code: ANTHROPIC_BASE_URL and a key (ANTHROPIC_API_KEY → x-api-key, ANTHROPIC_AUTH_TOKEN →
 * Bearer). A run that names its model names it for the small "haiku" side calls too, as a user whose
 * gateway sells another vendor's models must. CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC also stops the
 * session-title side call, which would otherwise take the mock's queued tool call.
 */
function claudeCode(run: AgentRun, ctx: RunContext): Invocation {
  const auth: Record<string, string> =
    run.auth === 'bearer' ? { ANTHROPIC_AUTH_TOKEN: ctx.key } : { ANTHROPIC_API_KEY: ctx.key };
  const model: Record<string, string> = run.model
    ? {
        ANTHROPIC_MODEL: run.model,
        ANTHROPIC_SMALL_FAST_MODEL: run.model,
        ANTHROPIC_DEFAULT_HAIKU_MODEL: run.model,
      }
    : {};
  return {
    command: packageFile('@anthropic-ai/claude-code', 'bin/claude.exe'),
    args: ['-p', ctx.prompt, ...(run.model ? ['--model', run.model] : [])],
    cwd: ctx.home,
    env: {
      ...baseEnv(ctx.home),
      ...auth,
      ANTHROPIC_BASE_URL: ctx.baseUrl,
      ...model,
      CLAUDE_CONFIG_DIR: join(ctx.home, '.claude'),
      DISABLE_TELEMETRY: '1',
      DISABLE_ERROR_REPORTING: '1',
      DISABLE_AUTOUPDATER: '1',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    },
  };
}

/**
 * Gemini CLI: GEMINI_API_KEY and GOOGLE_GEMINI_BASE_URL (read by @google/genai inside it); settings in
 * $GEMINI_CLI_HOME/.gemini/settings.json choose API-key auth and turn telemetry and usage statistics off.
 */
function geminiCli(run: AgentRun, ctx: RunContext): Invocation {
  const settings = {
    security: { auth: { selectedType: 'gemini-api-key' } },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    general: { disableAutoUpdate: true, disableUpdateNag: true },
  };
  writeFile(join(ctx.home, '.gemini', 'settings.json'), JSON.stringify(settings, null, 2));
  return {
    command: process.execPath,
    args: [
      packageFile('@google/gemini-cli', 'bundle/gemini.js'),
      '--skip-trust',
      '-p',
      ctx.prompt,
      ...(run.model ? ['-m', run.model] : []),
    ],
    cwd: ctx.home,
    env: {
      ...baseEnv(ctx.home),
      GEMINI_CLI_HOME: ctx.home,
      GEMINI_API_KEY: ctx.key,
      GOOGLE_GEMINI_BASE_URL: ctx.baseUrl,
      GEMINI_TELEMETRY_ENABLED: 'false',
    },
  };
}

/**
 * Codex CLI: a provider of its own in $CODEX_HOME/config.toml (base_url …/v1, the key from an env var,
 * the Responses wire API); analytics, OpenTelemetry export, feedback and update checks off.
 */
function codex(run: AgentRun, ctx: RunContext): Invocation {
  const codexHome = join(ctx.home, '.codex');
  const config = [
    ...(run.model ? [`model = "${run.model}"`] : []),
    'model_provider = "sluice"',
    'check_for_update_on_startup = false',
    '',
    '[model_providers.sluice]',
    'name = "Sluice"',
    `base_url = "${ctx.baseUrl}/v1"`,
    'env_key = "SLUICE_KEY"',
    'wire_api = "responses"',
    '',
    '[analytics]',
    'enabled = false',
    '',
    '[feedback]',
    'enabled = false',
    '',
    '[otel]',
    'exporter = "none"',
    '',
  ].join('\n');
  writeFile(join(codexHome, 'config.toml'), config);
  return {
    command: process.execPath,
    args: [packageFile('@openai/codex', 'bin/codex.js'), 'exec', '--skip-git-repo-check', ctx.prompt],
    cwd: ctx.home,
    env: { ...baseEnv(ctx.home), CODEX_HOME: codexHome, SLUICE_KEY: ctx.key },
  };
}

const BUILDERS: Record<AgentCli, (run: AgentRun, ctx: RunContext) => Invocation> = {
  'claude-code': claudeCode,
  'gemini-cli': geminiCli,
  codex,
};

/** Writes the run's config files under `ctx.home` and returns how to start it. */
export function prepareRun(run: AgentRun, ctx: RunContext): Invocation {
  mkdirSync(join(ctx.home, 'tmp'), { recursive: true });
  return BUILDERS[run.cli](run, ctx);
}
