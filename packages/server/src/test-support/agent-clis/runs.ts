// The channels (one per vendor format, each with its own key) and the runs: every CLI once on a channel
// of its own format (bytes forwarded) and once on a channel of another format (converted both ways);
// Codex twice, as it gives its own models other tools than the rest. Model names are the pinned CLI
// versions' defaults, so a user who only sets the base URL and key is covered. Each run but one is told by the mock to call one of the CLI's read-only tools first, so the
// tool call and its result cross the relay (and the conversion) before the final answer.
import type { AgentRun } from './agent-clis.js';

export interface ChannelSeed {
  type: number;
  key: string;
  models: string[];
}

/** Gemini CLI's router scores each prompt with this model first (generateContent, JSON under a schema). */
export const GEMINI_CLASSIFIER = 'gemini-3.5-flash-lite';
/** What the classifier answers, as a real model constrained to the schema would. */
export const CLASSIFIER_REPLY = JSON.stringify({ complexity_reasoning: 'A greeting.', complexity_score: 5 });

export const CHANNELS = {
  /**
   * Claude Code's default model, the model of the converted Gemini CLI run, and an OpenAI model name
   * served by Claude (as a gateway that maps it does), which Codex gives its own model's tools.
   */
  anthropic: {
    type: 14,
    key: 'sk-ant-agent-clis',
    models: ['claude-opus-4-8', 'claude-sonnet-4-5', 'gpt-6.2-astra'],
  },
  /** Chat completions and Responses: Codex's default model, and the converted Claude Code run's. */
  openai: { type: 1, key: 'sk-openai-agent-clis', models: ['gpt-6.2-sol', 'gpt-4.1'] },
  /** The Gemini CLI's default models (what its router picks for a simple prompt), the converted Codex run's. */
  gemini: {
    type: 24,
    key: 'AIza-gemini-agent-clis',
    models: ['gemini-3.1-pro-preview', 'gemini-3.8-flash', 'gemini-2.5-pro'],
  },
  /** Apart, so that the standing classifier answer and the runs' queued tool calls never meet. */
  classifier: { type: 24, key: 'AIza-classifier-agent-clis', models: [GEMINI_CLASSIFIER] },
} satisfies Record<string, ChannelSeed>;

/** Short, with no request for a tool: the mock answers "You said: <the words of the last user message>". */
export const PROMPT = 'Say hello to the relay';

/** The file each run's tool reads, in the run's working directory; its text must reach the upstream. */
export const NOTE_FILE = 'note.txt';
export const NOTE_TEXT = 'The relay note says sluice-marker-7319.';

const readNote = (name: string, argument: string, absolute: boolean) => ({
  name,
  arguments: (dir: string) => ({ [argument]: absolute ? `${dir}/${NOTE_FILE}` : NOTE_FILE }),
});

export const AGENT_RUNS: readonly AgentRun[] = [
  { cli: 'claude-code', channel: 'anthropic', auth: 'api-key', tool: readNote('Read', 'file_path', true) },
  {
    cli: 'claude-code',
    channel: 'openai',
    model: 'gpt-4.1',
    auth: 'bearer',
    tool: readNote('Read', 'file_path', true),
  },
  { cli: 'gemini-cli', channel: 'gemini', tool: readNote('read_file', 'file_path', false) },
  {
    cli: 'gemini-cli',
    channel: 'anthropic',
    model: 'claude-sonnet-4-5',
    tool: readNote('read_file', 'file_path', false),
  },
  // Its default model's tools come as code-mode `custom` tools, which the mock cannot call: text only.
  { cli: 'codex', channel: 'openai' },
  // Codex's default tools for a model it does not know: functions, the multi-agent `namespace` group
  // (flattened to multi_agent_v1--<name>) and the hosted web_search (left out).
  {
    cli: 'codex',
    channel: 'gemini',
    model: 'gemini-2.5-pro',
    tool: { name: 'exec_command', arguments: () => ({ cmd: `cat ${NOTE_FILE}` }) },
  },
  // Codex's default tools for its own models, in an additional_tools input item: namespaces whose
  // code-mode `exec` is a custom (free-text) tool, flattened to functions--exec--freeform. Its input is
  // JavaScript that calls the shell tool.
  {
    cli: 'codex',
    channel: 'anthropic',
    model: 'gpt-6.2-astra',
    tool: {
      name: 'functions--exec--freeform',
      arguments: () => ({ input: `text(await tools.exec_command({ cmd: 'cat ${NOTE_FILE}' }))` }),
    },
  },
];
