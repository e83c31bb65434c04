// How a quota warning reaches its user: one mail through the site's SMTP server, or one JSON POST to
// the user's webhook in new-api's form ({type, title, content, values, timestamp}, `{{value}}` in
// the content standing for each value in turn), with the user's secret as a bearer token.
import { request } from 'undici';
import type { Mailer } from '../../platform/mailer.js';
import { escapeHtml } from '../../platform/html.js';

export type WarningTarget = { kind: 'email'; to: string } | { kind: 'webhook'; url: string; secret: string };

export interface QuotaWarning {
  title: string;
  /** The text, with a `{{value}}` placeholder for each of `values`, in order. */
  content: string;
  values: string[];
  /** Unix seconds. */
  timestamp: number;
}

/** How long a webhook may take to answer before the warning counts as failed. */
const WEBHOOK_TIMEOUT_MS = 10_000;

export function quotaWarning(opts: {
  remaining: string;
  threshold: string;
  /** '' when the site has none to offer. */
  topUpLink: string;
  now: number;
}): QuotaWarning {
  const values = [opts.remaining, opts.threshold];
  let content = 'Your remaining quota is {{value}}, below your warning threshold of {{value}}.';
  if (opts.topUpLink !== '') {
    content += ' Top up to keep your API calls working: {{value}}';
    values.push(opts.topUpLink);
  } else {
    content += ' Top up to keep your API calls working.';
  }
  return { title: 'Your quota is running low', content, values, timestamp: opts.now };
}

/** The content with each placeholder replaced by its value, each value passed through `show`. */
export function fillWarning(warning: QuotaWarning, show: (value: string) => string = (v) => v): string {
  let next = 0;
  return warning.content.replace(/\{\{value\}\}/g, () => show(warning.values[next++] ?? ''));
}

const asHtml = (value: string): string =>
  /^https?:\/\//.test(value)
    ? `<a href="${escapeHtml(value)}">${escapeHtml(value)}</a>`
    : `<strong>${escapeHtml(value)}</strong>`;

export async function deliverWarning(
  mailer: Mailer,
  target: WarningTarget,
  warning: QuotaWarning,
): Promise<void> {
  if (target.kind === 'email') {
    await mailer.send({
      to: target.to,
      subject: warning.title,
      html: `<p>Hello,</p><p>${fillWarning({ ...warning, content: escapeHtml(warning.content) }, asHtml)}</p>`,
    });
    return;
  }
  const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'Sluice' };
  if (target.secret !== '') headers.authorization = `Bearer ${target.secret}`;
  const res = await request(target.url, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      type: 'quota_warning',
      title: warning.title,
      content: warning.content,
      values: warning.values,
      timestamp: warning.timestamp,
    }),
    headersTimeout: WEBHOOK_TIMEOUT_MS,
    bodyTimeout: WEBHOOK_TIMEOUT_MS,
  });
  // The answer's body is not used, but it must be read for the connection to be reused.
  await res.body.dump();
  if (res.statusCode < 200 || res.statusCode >= 300) {
    throw new Error(`the webhook answered HTTP ${res.statusCode}`);
  }
}
