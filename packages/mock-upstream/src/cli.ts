#!/usr/bin/env node
// `npm run mock-upstream`: the mock on PORT (default: a free port), until SIGINT or SIGTERM.
import { startMockUpstream } from './server.js';

const port = Number(process.env.PORT ?? 0);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  console.error(`PORT must be a port number, got "${process.env.PORT}"`);
  process.exit(1);
}

const mock = await startMockUpstream({ port, record: false });
console.log(`mock upstream listening on ${mock.url}`);

const stop = (): void => {
  mock.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
