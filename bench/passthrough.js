// The floor any Node relay can reach: a node:http server that forwards every request to UPSTREAM with an
// undici Pool and streams the answer back, with no parsing, auth, accounting or logging.
// Prints "pass-through listening on http://127.0.0.1:PORT" when ready.
import { createServer } from 'node:http';
import { Pool } from 'undici';

const upstream = process.env.UPSTREAM;
if (!upstream) {
  console.error('UPSTREAM must name the upstream base URL');
  process.exit(1);
}

const pool = new Pool(upstream, { connections: 256, keepAliveTimeout: 60_000 });
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'host',
  'upgrade',
  'te',
  'trailer',
]);

function endToEnd(headers) {
  const kept = {};
  for (const [name, value] of Object.entries(headers)) if (!HOP_BY_HOP.has(name)) kept[name] = value;
  return kept;
}

const server = createServer((req, res) => {
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  pool.stream(
    { path: req.url, method: req.method, headers: endToEnd(req.headers), body: hasBody ? req : undefined },
    ({ statusCode, headers }) => {
      res.writeHead(statusCode, endToEnd(headers));
      return res;
    },
    (error) => {
      if (!error) return;
      if (res.headersSent) res.destroy();
      else
        res
          .writeHead(502, { 'content-type': 'application/json' })
          .end('{"error":{"message":"upstream failed"}}');
    },
  );
});
server.keepAliveTimeout = 65_000;

server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  console.log(`pass-through listening on http://127.0.0.1:${server.address().port}`);
});

const stop = () => {
  server.close();
  server.closeAllConnections();
  pool.close().finally(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
