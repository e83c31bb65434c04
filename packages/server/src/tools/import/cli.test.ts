// The import command as an operator runs it: arguments, the target taken from SQLITE_PATH / SQL_DSN as
// the server takes it, the summary printed, the refusal of a database already in use, exit codes.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseArgs, runCli } from './cli.js';
import { NEW_API_TABLES } from './fixtures/gorm-schema.js';
import { newApiRows } from './fixtures/new-api-rows.js';
import { createSourceDb } from './fixtures/source-db.js';
import type { SourceDb } from './fixtures/source-db.js';

const REGISTER_LOADER = fileURLToPath(new URL('../../test-support/ts-loader/register.mjs', import.meta.url));
const CLI = fileURLToPath(new URL('./cli.ts', import.meta.url));

describe('parseArgs', () => {
  it('reads the source and the flags, and refuses what it does not know', () => {
    expect(parseArgs(['one-api.db', '--with-logs', '--force'])).toEqual({
      source: 'one-api.db',
      force: true,
      withLogs: true,
    });
    expect(parseArgs(['--from', 'one-api', 'postgres://u@h/db', '--logs-from', 'mysql://u@h/logs'])).toEqual({
      source: 'postgres://u@h/db',
      kind: 'one-api',
      logsFrom: 'mysql://u@h/logs',
      force: false,
      withLogs: false,
    });
    expect(parseArgs([])).toEqual({ error: 'no source given' });
    expect(parseArgs(['a.db', '--yes'])).toEqual({ error: 'unknown option --yes' });
    expect(parseArgs(['a.db', '--from', 'new'])).toEqual({ error: '--from takes one-api or new-api' });
    expect(parseArgs(['a.db', 'b.db'])).toEqual({ error: 'one source only (got a.db and b.db)' });
    expect(parseArgs(['--help'])).toEqual({ help: true });
  });
});

describe('npm run import', () => {
  let src: SourceDb;
  let dir: string;
  const env = () => ({ SQLITE_PATH: join(dir, 'sluice.db'), SQL_DSN: '', SESSION_SECRET: 'cli-test-secret' });

  beforeAll(async () => {
    src = await createSourceDb('sqlite');
    await src.fill(NEW_API_TABLES, (await newApiRows('http://127.0.0.1:9')).rows);
  });
  afterAll(async () => {
    await src?.dispose();
  });

  const run = async (argv: string[]) => {
    let out = '';
    let err = '';
    const code = await runCli(argv, env(), { out: (s) => (out += s), err: (s) => (err += s) });
    return { code, out, err };
  };

  it('imports into the configured database, prints a summary, refuses a second run without --force', async () => {
    dir = mkdtempSync(join(tmpdir(), 'sluice-import-cli-'));
    try {
      const first = await run([src.location]);
      expect(first.err).toContain(`Importing ${src.location} into sqlite (${join(dir, 'sluice.db')})`);
      expect(first.err).toMatch(/ {2}users: \d+ rows/);
      expect(first.code).toBe(0);
      const lines = first.out.split('\n');
      expect(lines[0]).toBe(
        `Imported from new-api (${src.location}) into sqlite (${join(dir, 'sluice.db')}):`,
      );
      expect(lines).toContain('  users        6 imported');
      expect(lines).toContain('  channels     4 imported, channel index rebuilt: 8 abilities');
      expect(lines).toContain('  logs         not imported (add --with-logs)');
      expect(lines).toContain('  keys Sluice does not have: Theme, console_setting.api_info');
      expect(lines).toContain('  SMTPPort: must be a number');
      expect(lines).toContain('  users: discord_id, last_login_at, oidc_id, remark, stripe_customer');

      const second = await run([src.location]);
      expect(second.code).toBe(1);
      expect(second.err).toContain(
        'Refused: the target database is not empty (it has 6 users, 5 tokens, 4 channels).',
      );
      expect(second.out).toBe('');

      const forced = await run([src.location, '--force', '--with-logs']);
      expect(forced.code).toBe(0);
      expect(forced.out.split('\n')).toContain('  logs         12 imported');
      expect(forced.out.split('\n')).toContain('  quota_data   3 imported, from 4 source rows');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads the logs from another database with --logs-from', async () => {
    dir = mkdtempSync(join(tmpdir(), 'sluice-import-cli-'));
    const main = await createSourceDb('sqlite');
    const logs = await createSourceDb('sqlite');
    try {
      const { rows } = await newApiRows('http://127.0.0.1:9');
      await main.fill(
        NEW_API_TABLES.filter((table) => table.name !== 'logs'),
        rows,
      );
      await logs.fill(
        NEW_API_TABLES.filter((table) => table.name === 'logs'),
        rows,
      );
      const result = await run([main.location, '--with-logs', '--logs-from', logs.location]);
      expect(result.code, result.err).toBe(0);
      expect(result.out.split('\n')).toContain('  logs         12 imported');
    } finally {
      await main.dispose();
      await logs.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('names what is wrong with the arguments or the source', async () => {
    dir = mkdtempSync(join(tmpdir(), 'sluice-import-cli-'));
    try {
      const none = await run([]);
      expect(none.code).toBe(2);
      expect(none.err).toMatch(/^no source given\n\nUsage: npm run import -- <source>/);
      const missing = await run([join(dir, 'nowhere.db')]);
      expect(missing).toMatchObject({
        code: 1,
        err: `Import failed: no such file: ${join(dir, 'nowhere.db')}\n`,
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('runs as a command of its own', async () => {
    dir = mkdtempSync(join(tmpdir(), 'sluice-import-cli-'));
    try {
      const { NODE_OPTIONS: _options, ...inherited } = process.env;
      const child = spawn(process.execPath, ['--import', REGISTER_LOADER, CLI, src.location], {
        env: { ...inherited, ...env() },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      expect(code, err).toBe(0);
      expect(out).toContain('  users        6 imported');
      const target = new SQLite(join(dir, 'sluice.db'), { readonly: true });
      try {
        const names = target.prepare('select username from users order by id').all();
        expect(names).toEqual(
          ['root', 'alice', 'bob', 'carol', 'dave', 'github_9911'].map((username) => ({ username })),
        );
      } finally {
        target.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
