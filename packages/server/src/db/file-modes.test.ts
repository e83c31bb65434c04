// The data folder holds password hashes, channel keys and the cookie-signing secret: its files are
// created readable by their owner only, whatever the process umask.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
});
