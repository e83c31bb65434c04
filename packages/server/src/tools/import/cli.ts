// `npm run import -- <source> [--with-logs] [--force]`: moves a one-api/new-api database into the
// database Sluice is configured with (SQL_DSN, else SQLITE_PATH, as the server reads them), after
// bringing that one to Sluice's schema.
import { pathToFileURL } from 'node:url';
import { loadConfig } from '../../config.js';
import { createDb } from '../../db/create-db.js';
import type { Db } from '../../db/create-db.js';
import { TargetNotEmptyError, importDatabase } from './import.js';
import { formatReport } from './report.js';
import { openSource } from './sources.js';
import type { Source } from './sources.js';
import type { SourceKind } from './table-spec.js';

export const USAGE = `Usage: npm run import -- <source> [--with-logs] [--force] [--logs-from <source>] [--from one-api|new-api]

  <source>      the one-api/new-api database: a SQLite file (one-api.db), or a postgres://… or
                mysql://… DSN (Go's user:pass@tcp(host:3306)/db form is accepted too)
  --with-logs   also the usage logs and the dashboard's hourly statistics
  --force       import into a database that already has users, tokens or channels; rows with the
                source's ids are replaced, so running it again imports nothing twice
  --logs-from   where the logs are, when they were kept in another database (LOG_SQL_DSN)
  --from        the source's kind, when it is not detected right

The target is the database Sluice is configured with: SQL_DSN, else SQLITE_PATH (./data/sluice.db).
Stop Sluice while importing, and start it afterwards.
`;

export interface CliArgs {
  source: string;
  logsFrom?: string;
  force: boolean;
  withLogs: boolean;
  kind?: SourceKind;
}

export function parseArgs(argv: readonly string[]): CliArgs | { error: string } | { help: true } {
  const args: Partial<CliArgs> & { force: boolean; withLogs: boolean } = { force: false, withLogs: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--help' || arg === '-h') return { help: true };
    if (arg === '--force') args.force = true;
    else if (arg === '--with-logs') args.withLogs = true;
    else if (arg === '--logs-from' || arg === '--from') {
      const value = argv[++i];
      if (value === undefined || value.startsWith('--')) return { error: `${arg} needs a value` };
      if (arg === '--logs-from') args.logsFrom = value;
      else if (value === 'one-api' || value === 'new-api') args.kind = value;
      else return { error: '--from takes one-api or new-api' };
    } else if (arg.startsWith('--')) return { error: `unknown option ${arg}` };
    else if (args.source === undefined) args.source = arg;
    else return { error: `one source only (got ${args.source} and ${arg})` };
  }
  if (args.source === undefined) return { error: 'no source given' };
  return { ...args, source: args.source };
}

export interface CliOutput {
  out(text: string): void;
  err(text: string): void;
}

const describeTarget = (db: Db, dsn: string): string => {
  if (db.dialect === 'sqlite') return `sqlite (${db.sqliteFile ?? ':memory:'})`;
  try {
    const url = new URL(dsn);
    if (url.password) url.password = '***';
    return `${db.dialect} (${url.toString()})`;
  } catch {
    return db.dialect;
  }
};

/** Runs the command; returns the exit code (0 done, 1 refused or failed, 2 bad arguments). */
export async function runCli(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  io: CliOutput,
): Promise<number> {
  const args = parseArgs(argv);
  if ('help' in args) {
    io.out(USAGE);
    return 0;
  }
  if ('error' in args) {
    io.err(`${args.error}\n\n${USAGE}`);
    return 2;
  }
  let source: Source | undefined;
  let logsSource: Source | undefined;
  let target: Db | undefined;
  try {
    source = await openSource(args.source);
    if (args.logsFrom !== undefined) logsSource = await openSource(args.logsFrom);
    const config = loadConfig(env);
    target = await createDb({ sqlDsn: config.sqlDsn, sqlitePath: config.sqlitePath });
    const into = describeTarget(target, config.sqlDsn);
    io.err(`Importing ${source.label} into ${into}\n`);
    let shown = { table: '', at: 0 };
    const report = await importDatabase({
      source,
      ...(logsSource ? { logsSource } : {}),
      target,
      force: args.force,
      withLogs: args.withLogs,
      ...(args.kind ? { kind: args.kind } : {}),
      onProgress(table, rows) {
        // A line when a table starts, then at most one a second for a long one.
        const now = Date.now();
        if (table === shown.table && now - shown.at < 1000) return;
        shown = { table, at: now };
        io.err(`  ${table}: ${rows} rows\n`);
      },
    });
    io.out(formatReport(report, source.label, into));
    return 0;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    io.err(`${error instanceof TargetNotEmptyError ? 'Refused' : 'Import failed'}: ${message}\n`);
    return 1;
  } finally {
    await source?.close();
    await logsSource?.close();
    await target?.close();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await runCli(process.argv.slice(2), process.env, {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
  });
}
