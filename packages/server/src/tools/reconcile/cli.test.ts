// The reconcile command as an operator runs it: arguments, the database taken from SQLITE_PATH /
// SQL_DSN as the server takes it, every difference printed with its size, snapshots, exit codes.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test-support/test-app.js';
import type { TestApp } from '../../test-support/test-app.js';
import { parseArgs, runCli } from './cli.js';

const REGISTER_LOADER = fileURLToPath(new URL('../../test-support/ts-loader/register.mjs', import.meta.url));
const CLI = fileURLToPath(new URL('./cli.ts', import.meta.url));

describe('parseArgs', () => {
  it('reads the period and the flags, and refuses what it does not know', () => {
    expect(parseArgs([])).toEqual({ snapshot: false, accept: false, json: false });
    expect(parseArgs(['--start', '1700000000', '--end', '1700086400', '--json'])).toEqual({
      start: 1_700_000_000,
      end: 1_700_086_400,
      snapshot: false,
      accept: false,
      json: true,
    });
    expect(parseArgs(['--all'])).toMatchObject({ start: null });
    expect(parseArgs(['--accept'])).toMatchObject({ snapshot: true, accept: true });
    expect(parseArgs(['--start', 'yesterday'])).toEqual({ error: '--start needs a unix time in seconds' });
    expect(parseArgs(['--end'])).toEqual({ error: '--end needs a unix time in seconds' });
    expect(parseArgs(['--snapshot', '--all'])).toEqual({
      error: '--snapshot checks from the latest snapshot to now: it takes no --start, --end or --all',
    });
    expect(parseArgs(['--yes'])).toEqual({ error: 'unknown argument --yes' });
    expect(parseArgs(['-h'])).toEqual({ help: true });
  });
});

describe('npm run reconcile', () => {
  let t: TestApp;
  const env = () => ({ SQLITE_PATH: t.db.sqliteFile ?? '', SQL_DSN: '', SESSION_SECRET: 'cli-test-secret' });

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  const run = async (argv: string[], environment: NodeJS.ProcessEnv = env()) => {
    let out = '';
    let err = '';
    const code = await runCli(argv, environment, { out: (s) => (out += s), err: (s) => (err += s) });
    return { code, out, err };
  };
  const shiftRoot = (by: number) =>
    t.db.db
      .updateTable('users')
      .set((eb) => ({ quota: eb('quota', '+', by) }))
      .where('username', '=', 'root')
      .execute();

  it('exits 0 when every balance matches, 1 with every difference and its size when one does not', async () => {
    const clean = await run([]);
    expect(clean).toMatchObject({ code: 0, err: '' });
    expect(clean.out).toMatch(
      /^Reconciled from the beginning to now, \S+ \(\d+\): 1 user, 0 tokens, 1 log row that moved money\.\n/,
    );
    expect(clean.out).toContain('  grant: quota +100000000\n');
    expect(clean.out).toContain('Every balance matches its logs.\n');

    await shiftRoot(4242);
    try {
      const damaged = await run([]);
      expect(damaged.code).toBe(1);
      expect(damaged.out).toContain(
        '1 difference:\n' +
          '  user 1 (root) quota: 0 → 100004242 (changed +100004242), ' +
          'the logs account for +100000000: difference +4242\n' +
          '    logged: grant +100000000\n',
      );
      const json = await run(['--json']);
      expect(json.code).toBe(1);
      const report = JSON.parse(json.out) as { differences: Array<Record<string, unknown>> };
      expect(report.differences).toEqual([
        {
          kind: 'user',
          id: 1,
          name: 'root',
          field: 'quota',
          start: 0,
          end: 100_004_242,
          logged: 100_000_000,
          difference: 4242,
          by: { grant: 100_000_000 },
        },
      ]);
    } finally {
      await shiftRoot(-4242);
    }
  });

  it('stores a snapshot when told, accepting differences only with --accept, and checks from it', async () => {
    await shiftRoot(10);
    const refused = await run(['--snapshot']);
    expect(refused.code).toBe(1);
    expect(refused.out).toContain('difference +10');
    expect(refused.out).toContain('No snapshot stored (--accept stores one in spite of the differences).\n');
    const accepted = await run(['--accept']);
    expect(accepted.code).toBe(1);
    expect(accepted.out).toMatch(/Stored a snapshot as of \S+ \(\d+\)\.\n$/);
    const since = await run([]);
    expect(since.code).toBe(0);
    expect(since.out).toMatch(/^Reconciled from \S+ \(\d+\) to now/);
    // From the beginning the accepted difference is still there.
    expect((await run(['--all'])).out).toContain('difference +10');
  });

  it('exits 2 on bad arguments and 3 when the database cannot be reached', async () => {
    const bad = await run(['--start']);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--start needs a unix time in seconds\n\nUsage: npm run reconcile');
    const help = await run(['--help']);
    expect(help).toMatchObject({ code: 0, err: '' });
    expect(help.out).toContain('Exit status: 0 nothing differs, 1 differences found');
    const unreachable = await run([], { ...env(), SQL_DSN: 'postgres://nobody@127.0.0.1:9/none' });
    expect(unreachable.code).toBe(3);
    expect(unreachable.err).toMatch(/^Reconciliation failed: /);
  });

  it('runs as a command of its own, with its exit status', async () => {
    await shiftRoot(-3);
    try {
      const { NODE_OPTIONS: _options, ...inherited } = process.env;
      const child = spawn(process.execPath, ['--import', REGISTER_LOADER, CLI], {
        env: { ...inherited, ...env() },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      expect(code, err).toBe(1);
      expect(out).toContain('difference -3');
    } finally {
      await shiftRoot(3);
    }
  }, 120_000);
});
