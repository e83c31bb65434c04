// The data folder holds password hashes, channel keys and the cookie-signing secret: its files are
// created readable by their owner only, whatever the process umask, and files left looser by an
// earlier version or a restored backup are tightened at start.
import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { createDb } from './create-db.js';

const modeOf = (file: string) => statSync(file).mode & 0o777;

describe('files in the data folder', () => {
  const dirs: string[] = [];
  const freshDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'sluice-modes-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('creates the SQLite database and its WAL with mode 0600 under a permissive umask', async () => {
    const path = join(freshDir(), 'nested', 'sluice.db');
    const previous = process.umask(0o000);
    try {
      const db = await createDb({ sqlDsn: '', sqlitePath: path });
      expect(modeOf(path)).toBe(0o600);
      expect(modeOf(`${path}-wal`)).toBe(0o600);
      await db.close();
    } finally {
      process.umask(previous);
    }
  });

  it('creates the generated session secret with mode 0600 and keeps it across starts', () => {
    const dir = freshDir();
    const previous = process.umask(0o000);
    try {
      const env = { SQLITE_PATH: join(dir, 'sluice.db') };
      const first = loadConfig(env).sessionSecret;
      expect(modeOf(join(dir, 'session-secret'))).toBe(0o600);
      expect(loadConfig(env).sessionSecret).toBe(first);
    } finally {
      process.umask(previous);
    }
  });

  it('tightens an existing database and the WAL files beside it to 0600 at start', async () => {
    const path = join(freshDir(), 'sluice.db');
    await (await createDb({ sqlDsn: '', sqlitePath: path })).close();
    // A connection still open (another process, or one that crashed) keeps the -wal and -shm files.
    const other = new SQLite(path);
    try {
      other.pragma('journal_mode = WAL');
      other.exec('create table left_open (x integer)');
      const files = [path, `${path}-wal`, `${path}-shm`];
      for (const file of files) chmodSync(file, 0o644);
      const db = await createDb({ sqlDsn: '', sqlitePath: path });
      await db.close();
      expect(files.map(modeOf)).toEqual([0o600, 0o600, 0o600]);
    } finally {
      other.close();
    }
  });

  it('tightens an existing session-secret file to 0600 and keeps its secret', () => {
    const dir = freshDir();
    const file = join(dir, 'session-secret');
    writeFileSync(file, 'kept-secret\n');
    chmodSync(file, 0o644);
    expect(loadConfig({ SQLITE_PATH: join(dir, 'sluice.db') }).sessionSecret).toBe('kept-secret');
    expect(modeOf(file)).toBe(0o600);
  });

  it('leaves a file that is already stricter than 0600 as it is', () => {
    const dir = freshDir();
    const file = join(dir, 'session-secret');
    writeFileSync(file, 'read-only-secret');
    chmodSync(file, 0o400);
    expect(loadConfig({ SQLITE_PATH: join(dir, 'sluice.db') }).sessionSecret).toBe('read-only-secret');
    expect(modeOf(file)).toBe(0o400);
  });
});
