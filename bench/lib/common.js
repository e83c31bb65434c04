// What both benchmarks (run.js, cluster.js) share: the knobs' parsing, the model names and request
// bodies of the OpenAI → OpenAI calls, and writing a results section into bench/README.md.
import { readFileSync, writeFileSync } from 'node:fs';

/** A positive number from the environment, or `fallback`. */
export const number = (name, fallback) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  return value;
};

/** The knobs both benchmarks read (bench/README.md lists them). */
export const commonConfig = () => ({
  duration: number('BENCH_DURATION', 10),
  warmup: number('BENCH_WARMUP', 2),
  connections: number('BENCH_CONNECTIONS', 50),
  sluiceLogLevel: process.env.BENCH_SLUICE_LOG_LEVEL ?? 'warn',
  writeReadme: process.env.BENCH_NO_README !== '1',
});

export const MODEL = 'gpt-4o-mini';
export const CLAUDE_MODEL = 'claude-3-5-haiku-20241022';
export const UPSTREAM_KEY = 'sk-bench-upstream';
export const SHORT = 'Write one short sentence about rivers.';
export const LONG = 'Write a paragraph about rivers. [[mock:{"reply_tokens":50}]]';

export const openAiBodies = (model) => ({
  // JSON: a short echo reply. Stream: 50 content chunks, the mock's directive travelling in the message.
  json: JSON.stringify({ model, messages: [{ role: 'user', content: SHORT }] }),
  stream: JSON.stringify({ model, stream: true, messages: [{ role: 'user', content: LONG }] }),
});

export const bearer = (key) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' });

/** Replaces what lies between `<!-- {marker}:start -->` and `<!-- {marker}:end -->` in `file`. */
export function writeSection(file, marker, section) {
  const text = readFileSync(file, 'utf8');
  const start = `<!-- ${marker}:start -->`;
  const end = `<!-- ${marker}:end -->`;
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from < 0 || to < from) throw new Error(`${file} has lost its ${marker} markers`);
  writeFileSync(file, `${text.slice(0, from + start.length)}\n\n${section}\n\n${text.slice(to)}`);
}
