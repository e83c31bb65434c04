// The import's summary as the operator reads it: counts per table, then what was left out and why.
import type { ImportReport, TableReport } from './import.js';

const NAME_WIDTH = 13;

function tableLine(t: TableReport, abilities: number): string {
  const name = t.table.padEnd(NAME_WIDTH);
  if (t.state === 'missing') return `  ${name}not in the source`;
  if (t.state === 'not-requested') return `  ${name}not imported (add --with-logs)`;
  const parts = [`${t.written} imported`];
  const skipped = t.skipped.reduce((n, s) => n + s.count, 0);
  if (skipped > 0) parts.push(`${skipped} skipped`);
  if (t.written !== t.read - skipped) parts.push(`from ${t.read} source rows`);
  if (t.replaced > 0) parts.push(`${t.replaced} target rows with the same name or key replaced`);
  if (t.table === 'channels') parts.push(`channel index rebuilt: ${abilities} abilities`);
  return `  ${name}${parts.join(', ')}`;
}

export function formatReport(report: ImportReport, from: string, into: string): string {
  const lines = [`Imported from ${report.kind} (${from}) into ${into}:`];
  if (report.options)
    lines.push(`  ${'options'.padEnd(NAME_WIDTH)}${report.options.imported.length} imported`);
  for (const t of report.tables) lines.push(tableLine(t, report.abilities));

  const skipped = report.tables.flatMap((t) =>
    t.skipped.map(
      (s) =>
        `  ${t.table}: ${s.count} × ${s.reason} (id ${s.ids.join(', ')}${s.count > s.ids.length ? ', …' : ''})`,
    ),
  );
  if (skipped.length > 0) lines.push('Rows not imported:', ...skipped);

  const options = report.options;
  if (options && (options.unknown.length > 0 || options.invalid.length > 0)) {
    lines.push('Options not imported:');
    if (options.unknown.length > 0) lines.push(`  keys Sluice does not have: ${options.unknown.join(', ')}`);
    for (const bad of options.invalid) lines.push(`  ${bad.key}: ${bad.message}`);
  }

  const dropped = report.tables.filter((t) => t.dropped.length > 0);
  if (dropped.length > 0) {
    lines.push('Source columns Sluice has no place for (not imported):');
    for (const t of dropped) lines.push(`  ${t.table}: ${t.dropped.join(', ')}`);
  }

  const notes = report.tables.flatMap((t) => t.notes.map((n) => `  ${t.table}: ${n.count} ${n.text}`));
  if (notes.length > 0) lines.push('Notes:', ...notes);
  if (report.warnings.length > 0) lines.push('Warnings:', ...report.warnings.map((w) => `  ${w}`));
  return `${lines.join('\n')}\n`;
}
