import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { lazyRequestLogger } from './request-logger.js';

function appWithLog(level: string) {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line) lines.push(JSON.parse(line));
      done();
    },
  });
  const app = Fastify({
    logger: { level, stream },
    disableRequestLogging: true,
    genReqId: () => 'req-1',
    childLoggerFactory: lazyRequestLogger,
  });
  app.get('/', async (req) => {
    req.log.info('info line');
    req.log.warn({ extra: 1 }, 'warn line');
    req.log.child({ part: 'inner' }).error('child line');
    return { level: req.log.level };
  });
  return { app, lines };
}

describe('request loggers made on first use', () => {
  it('writes lines at or above the level with the request id, and skips the rest', async () => {
    const { app, lines } = appWithLog('warn');
    const res = await app.inject({ method: 'GET', url: '/' });
    expect(res.json()).toEqual({ level: 'warn' });
    expect(lines.map((l) => l.msg)).toEqual(['warn line', 'child line']);
    expect(lines[0]).toMatchObject({ reqId: 'req-1', extra: 1, level: 40 });
    expect(lines[1]).toMatchObject({ reqId: 'req-1', part: 'inner', level: 50 });
    await app.close();
  });

  it('writes every line when the level allows it', async () => {
    const { app, lines } = appWithLog('info');
    await app.inject({ method: 'GET', url: '/' });
    expect(lines.map((l) => [l.msg, l.reqId])).toEqual([
      ['info line', 'req-1'],
      ['warn line', 'req-1'],
      ['child line', 'req-1'],
    ]);
    await app.close();
  });
});
