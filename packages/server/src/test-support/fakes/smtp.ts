// Fake SMTP server (smtp-server) on 127.0.0.1:0 that requires the configured login and keeps every
// message it accepts, decoded enough for tests to read the subject and the HTML body.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface CapturedMail {
  from: string;
  to: string[];
  subject: string;
  html: string;
  raw: string;
}

export interface FakeSmtp {
  host: string;
  port: number;
  messages: CapturedMail[];
  /** The newest message to this address; throws when none arrived. */
  lastTo(address: string): CapturedMail;
  close(): Promise<void>;
}

/** Header block → lower-cased name → value, with folded lines joined. */
function parseHeaders(block: string): Map<string, string> {
  const headers = new Map<string, string>();
  const unfolded = block.replace(/\r?\n[ \t]+/g, ' ');
  for (const line of unfolded.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return headers;
}

const decodeQuotedPrintable = (text: string): string =>
  Buffer.from(
    text
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    'latin1',
  ).toString('utf8');

/** RFC 2047 encoded words, as nodemailer writes non-ASCII subjects. */
const decodeWords = (value: string): string =>
  value.replace(/=\?([^?]+)\?([QB])\?([^?]*)\?=\s*/gi, (_m, _charset: string, kind: string, data: string) =>
    kind.toUpperCase() === 'B'
      ? Buffer.from(data, 'base64').toString('utf8')
      : decodeQuotedPrintable(data.replace(/_/g, ' ')),
  );

function splitPart(text: string): { headers: Map<string, string>; body: string } {
  const match = /\r?\n\r?\n/.exec(text);
  if (!match) return { headers: parseHeaders(text), body: '' };
  return {
    headers: parseHeaders(text.slice(0, match.index)),
    body: text.slice(match.index + match[0].length),
  };
}

function decodeBody(headers: Map<string, string>, body: string): string {
  const encoding = (headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(body);
  return body;
}

/** The HTML body of a message, looking inside multipart bodies when needed. */
function findHtml(headers: Map<string, string>, body: string): string {
  const type = headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (type.toLowerCase().startsWith('multipart/') && boundary) {
    for (const chunk of body.split(`--${boundary}`).slice(1)) {
      if (chunk.startsWith('--')) break;
      const part = splitPart(chunk.replace(/^\r?\n/, ''));
      const html = findHtml(part.headers, part.body);
      if (html) return html;
    }
    return '';
  }
  return type.toLowerCase().startsWith('text/html') ? decodeBody(headers, body) : '';
}

export function parseMail(raw: string, envelope: { from: string; to: string[] }): CapturedMail {
  const { headers, body } = splitPart(raw);
  return {
    ...envelope,
    subject: decodeWords(headers.get('subject') ?? ''),
    html: findHtml(headers, body),
    raw,
  };
}

/**
 * `starttls`: offer STARTTLS with smtp-server's built-in self-signed certificate (as many small mail
 * relays do); otherwise plain SMTP with AUTH on loopback.
 */
export async function startFakeSmtp(
  login: { user: string; pass: string },
  opts: { starttls?: boolean } = {},
): Promise<FakeSmtp> {
  const messages: CapturedMail[] = [];
  const server = new SMTPServer({
    disabledCommands: opts.starttls ? [] : ['STARTTLS'],
    allowInsecureAuth: !opts.starttls,
    authMethods: ['PLAIN', 'LOGIN'],
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === login.user && auth.password === login.pass) {
        callback(null, { user: auth.username });
      } else {
        callback(new Error('Invalid username or password'));
      }
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const envelope = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
        };
        messages.push(parseMail(Buffer.concat(chunks).toString('utf8'), envelope));
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    host: '127.0.0.1',
    port,
    messages,
    lastTo(address) {
      const found = messages.filter((m) => m.to.includes(address)).at(-1);
      if (!found) throw new Error(`no mail arrived for ${address}`);
      return found;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
