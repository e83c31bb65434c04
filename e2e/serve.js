// Starts the built server on a fresh SQLite database for the browser suite.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dir = mkdtempSync(join(tmpdir(), 'sluice-e2e-'));
process.env.SQLITE_PATH = join(dir, 'sluice.db');
// Specs that need rows no console call creates (drawing and task records) write them into this
// database; they find its path by the server's port.
writeFileSync(join(tmpdir(), `sluice-e2e-${process.env.PORT ?? '3000'}.db-path`), process.env.SQLITE_PATH);
process.env.SESSION_SECRET = 'e2e-secret-e2e-secret-e2e-secret';
process.env.LOG_LEVEL = process.env.LOG_LEVEL ?? 'warn';
// The specs sign in as root with the spec's 123456, chosen here as the operator's password so the
// first-start password change (its own spec) does not stand in their way.
process.env.INITIAL_ROOT_PASSWORD = '123456';
// Every spec signs in; the production default (20 per 20 minutes per address) would trip.
process.env.CRITICAL_RATE_LIMIT = process.env.CRITICAL_RATE_LIMIT ?? '1000';
await import('../packages/server/dist/sluice.js');
