// Entry point: configuration → database → app → listen; drains and closes on SIGTERM/SIGINT.
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { createDb } from './db/create-db.js';

async function main(): Promise<void> {
  const config = loadConfig();
  const db = await createDb({ sqlDsn: config.sqlDsn, sqlitePath: config.sqlitePath });
  const app = await buildApp({ config, db, logger: { level: config.logLevel } });
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: draining requests');
    const force = setTimeout(() => process.exit(1), 30_000);
    force.unref();
    try {
      await app.close();
      await db.close();
    } finally {
      process.exit(0);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  await app.listen({ port: config.port, host: config.host });
  app.log.info(
    `Sluice is serving on http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${config.port}`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
