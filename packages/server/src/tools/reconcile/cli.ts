// `npm run reconcile -- [--start <t>] [--end <t>] [--all] [--snapshot] [--accept] [--json]`: checks
// that every balance changed by exactly what its log rows say (billing/reconcile.ts), on the database
// the server is configured with (SQL_DSN, else SQLITE_PATH), prints every difference with its size
// and exits 1 when there is one.
import { pathToFileURL } from 'node:url';
import { loadConfig } from '../../config.js';
import { createDb } from '../../db/create-db.js';
import type { Db } from '../../db/create-db.js';
import { CATEGORIES } from '../../billing/log-amounts.js';
import type { Amounts } from '../../billing/log-amounts.js';
import { SNAPSHOT_MARGIN_S, reconcile, takeSnapshot } from '../../billing/reconcile.js';
import type { Difference, ReconcileReport } from '../../billing/reconcile.js';

export const USAGE = `Usage: npm run reconcile -- [--start <time>] [--end <time>] [--all] [--snapshot] [--accept] [--json]

Checks that every user's quota, used quota and invite earnings, and every token's used quota, changed
over a period by exactly what the log rows of that period say (consumption, refunds, top-ups,
redemptions, administrators' changes, transfers, grants), and prints every difference with its size.

  (no option)   from the latest snapshot (the beginning, when none was taken) to now
  --all         from the beginning, when every balance was 0: needs every log row ever written
  --start <t>   from the latest snapshot taken as of unix time t or earlier
  --end <t>     to the first snapshot as of t or later (now, when there is none)
  --snapshot    then store a snapshot (as of ${SNAPSHOT_MARGIN_S / 60} minutes ago) when nothing differs; the next
                check starts from it, so logs older than it may be purged
  --accept      store the snapshot even when something differs: the differences become the new
                starting point (after an import, or once they are explained)
  --json        print the report as JSON

Exit status: 0 nothing differs, 1 differences found, 2 bad arguments, 3 the check could not run.
The database is the one Sluice is configured with: SQL_DSN, else SQLITE_PATH (./data/sluice.db).
`;

export interface CliArgs {
  start?: number | null;
  end?: number;
  snapshot: boolean;
  accept: boolean;
  json: boolean;
}

export function parseArgs(argv: readonly string[]): CliArgs | { error: string } | { help: true } {
  const args: CliArgs = { snapshot: false, accept: false, json: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--help' || arg === '-h') return { help: true };
    if (arg === '--snapshot') args.snapshot = true;
    else if (arg === '--accept') args.accept = args.snapshot = true;
    else if (arg === '--json') args.json = true;
    else if (arg === '--all') args.start = null;
    else if (arg === '--start' || arg === '--end') {
      const value = argv[++i];
      if (value === undefined || !/^\d{1,12}$/.test(value))
        return { error: `${arg} needs a unix time in seconds` };
      if (arg === '--start') args.start = Number(value);
      else args.end = Number(value);
    } else return { error: `unknown argument ${arg}` };
  }
  if (args.snapshot && (args.start !== undefined || args.end !== undefined)) {
    return {
      error: '--snapshot checks from the latest snapshot to now: it takes no --start, --end or --all',
    };
  }
  return args;
}

export interface CliOutput {
  out(text: string): void;
  err(text: string): void;
}

const count = (n: number, what: string): string => `${n} ${what}${n === 1 ? '' : 's'}`;

const signed = (n: number): string => (n > 0 ? `+${n}` : String(n));

const when = (t: number | null, otherwise: string): string =>
  t === null ? otherwise : `${new Date(t * 1000).toISOString()} (${t})`;

function describeDifference(d: Difference): string {
  const who =
    d.kind === 'user' ? `user ${d.id} (${d.name})` : `token ${d.id} (${d.name}, user ${String(d.user_id)})`;
  const parts = CATEGORIES.filter((c) => d.by[c] !== undefined).map(
    (c) => `${c} ${signed(d.by[c] as number)}`,
  );
  return (
    `  ${who} ${d.field}: ${d.start} → ${d.end} (changed ${signed(d.end - d.start)}), ` +
    `the logs account for ${signed(d.logged)}: difference ${signed(d.difference)}\n` +
    (parts.length > 0 ? `    logged: ${parts.join(', ')}\n` : '')
  );
}

function describeTotals(totals: Partial<Record<string, Amounts>>): string {
  const lines = CATEGORIES.flatMap((c) => {
    const t = totals[c];
    if (!t) return [];
    const fields = (['quota', 'used_quota', 'aff_quota'] as const)
      .filter((f) => t[f] !== 0)
      .map((f) => `${f} ${signed(t[f])}`);
    return fields.length > 0 ? [`  ${c}: ${fields.join(', ')}\n`] : [];
  });
  return lines.length > 0
    ? `Moved by the period's log rows:\n${lines.join('')}`
    : 'No log row moved money.\n';
}

export function formatReport(report: ReconcileReport): string {
  let text =
    `Reconciled from ${when(report.from, 'the beginning')} to ${when(report.to, `now, ${when(report.checked_at, '')}`)}: ` +
    `${count(report.users, 'user')}, ${count(report.tokens, 'token')}, ` +
    `${count(report.log_rows, 'log row')} that moved money.\n`;
  text += describeTotals(report.totals);
  for (const warning of report.warnings) text += `Warning: ${warning}.\n`;
  if (report.differences.length === 0) return `${text}Every balance matches its logs.\n`;
  text += `${count(report.differences.length, 'difference')}:\n`;
  for (const d of report.differences) text += describeDifference(d);
  return text;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Runs the command; returns the exit code (0 clean, 1 differences, 2 bad arguments, 3 failed). */
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
  let db: Db | undefined;
  try {
    const config = loadConfig(env);
    db = await createDb({ sqlDsn: config.sqlDsn, sqlitePath: config.sqlitePath });
    const now = nowSeconds();
    let report: ReconcileReport;
    let saved: number | null = null;
    if (args.snapshot) {
      ({ report, saved } = await takeSnapshot(db.db, db.dialect, { now, accept: args.accept }));
    } else {
      report = await reconcile(db.db, db.dialect, {
        ...(args.start !== undefined ? { start: args.start } : {}),
        end: args.end ?? null,
        now,
      });
    }
    if (args.json) io.out(`${JSON.stringify(args.snapshot ? { report, saved } : report, null, 2)}\n`);
    else {
      io.out(formatReport(report));
      if (args.snapshot) {
        io.out(
          saved !== null
            ? `Stored a snapshot as of ${when(saved, '')}.\n`
            : report.differences.length > 0
              ? 'No snapshot stored (--accept stores one in spite of the differences).\n'
              : 'No snapshot stored.\n',
        );
      }
    }
    return report.differences.length > 0 ? 1 : 0;
  } catch (error) {
    io.err(`Reconciliation failed: ${error instanceof Error ? error.message : String(error)}\n`);
    return 3;
  } finally {
    await db?.close();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await runCli(process.argv.slice(2), process.env, {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
  });
}
