// GET a JSON document from a channel's upstream (model list, billing). Failures become one
// readable sentence so the console can show why.
import { request } from 'undici';

export class UpstreamError extends Error {
  override name = 'UpstreamError';
}

const TIMEOUT_MS = 20_000;

const upstreamMessage = (text: string): string => {
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    const message = typeof body.error === 'string' ? body.error : (body.error?.message ?? body.message);
    if (typeof message === 'string' && message !== '') return message;
  } catch {
    // not JSON: fall back to the text itself
  }
  return text.slice(0, 200);
};

export async function getUpstreamJson(url: string, headers: Record<string, string>): Promise<unknown> {
  let statusCode: number;
  let text: string;
  try {
    const res = await request(url, {
      method: 'GET',
      headers: { accept: 'application/json', ...headers },
      headersTimeout: TIMEOUT_MS,
      bodyTimeout: TIMEOUT_MS,
    });
    statusCode = res.statusCode;
    text = await res.body.text();
  } catch (error) {
    throw new UpstreamError(`cannot reach ${url}: ${(error as Error).message}`);
  }
  if (statusCode >= 400) {
    const detail = upstreamMessage(text);
    throw new UpstreamError(`upstream answered HTTP ${statusCode}${detail ? `: ${detail}` : ''}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new UpstreamError('upstream answered with something that is not JSON');
  }
}

export const bearer = (key: string): Record<string, string> =>
  key === '' ? {} : { authorization: `Bearer ${key}` };
