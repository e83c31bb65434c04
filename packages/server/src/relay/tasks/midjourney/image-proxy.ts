// GET /mj/image/{id} (MjForwardUrlEnabled): the image of a drawing, served from Sluice's address so
// pages embed it without learning the upstream's. No key (an <img> sends none): the id is the secret a
// client was given. Only raster images pass, streamed with a size cap; anything else (an HTML error
// page, an SVG that could run script on Sluice's origin) is refused.
import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { RelayError } from '../../ir/errors.js';
import type { RelayRuntime } from '../../pipeline/relay-runtime.js';
import { cancellationOf } from '../../pipeline/upstream-client.js';
import type { UpstreamBody } from '../../pipeline/upstream-client.js';

/** The largest image passed on (Midjourney's upscales are a few MB). */
export const IMAGE_LIMIT = 32 * 1024 * 1024;
const IMAGE_TIMEOUT_MS = 60_000;
const RASTER = /^image\/(?:png|jpeg|jpg|gif|webp|avif|bmp)$/;

const notFound = (id: string) => new RelayError(404, `image ${id} not found`, 'image_not_found');

/** The body, chunk by chunk, failing once more than the cap has come. */
async function* capped(body: UpstreamBody, limit: number): AsyncGenerator<Buffer> {
  let seen = 0;
  for await (const chunk of body) {
    seen += chunk.length;
    if (seen > limit) throw new Error(`the image is larger than ${limit} bytes`);
    yield chunk;
  }
}

export async function serveImage(rt: RelayRuntime, id: string, reply: FastifyReply): Promise<FastifyReply> {
  if (!rt.ctx.options.get('MjForwardUrlEnabled')) throw notFound(id);
  const row = await rt.ctx.db
    .selectFrom('midjourneys')
    .select(['image_url', 'status'])
    .where('mj_id', '=', id)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  const url = row?.image_url ?? '';
  if (!row || !/^https?:\/\//i.test(url)) throw notFound(id);
  const cancel = cancellationOf(AbortSignal.timeout(IMAGE_TIMEOUT_MS));
  let res;
  try {
    res = await rt.upstream.send({ url, method: 'GET', headers: { accept: 'image/*' }, body: '' }, cancel, {
      headersMs: IMAGE_TIMEOUT_MS,
      bodyMs: IMAGE_TIMEOUT_MS,
    });
  } catch {
    throw new RelayError(502, `the image of task ${id} could not be fetched`, 'upstream_connection');
  }
  const type =
    String(res.headers['content-type'] ?? '')
      .split(';')[0]
      ?.trim()
      .toLowerCase() ?? '';
  const length = Number(res.headers['content-length'] ?? Number.NaN);
  if (res.status !== 200 || !RASTER.test(type) || length > IMAGE_LIMIT) {
    res.body.destroy();
    const why =
      res.status !== 200 ? `answered ${res.status}` : !RASTER.test(type) ? 'is not an image' : 'is too large';
    throw new RelayError(502, `the image of task ${id} ${why} upstream`, 'bad_upstream_response');
  }
  void reply
    .header('content-type', type)
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'")
    // A finished drawing's image stays as it is; a running one's preview changes.
    .header('cache-control', row.status === 'SUCCESS' ? 'public, max-age=86400' : 'no-store');
  if (Number.isFinite(length)) void reply.header('content-length', String(length));
  return reply.send(Readable.from(capped(res.body, IMAGE_LIMIT)));
}
