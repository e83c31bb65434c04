// Files that hold secrets (the SQLite database with password hashes and channel keys, the session
// secret) are readable by their owner only: created so, and tightened at start when an older version,
// a restored backup or a copy left them open to the group or to everyone.
import { chmodSync, statSync } from 'node:fs';

const errorCode = (error: unknown): unknown =>
  typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;

/**
 * Sets mode 0600 on `path` when it grants anything to group or others (an absent file is left
 * absent; 0400 stays 0400). A file this process may use but not chmod (another owner) keeps its
 * mode with a warning: refusing to start would stop a running deployment on upgrade.
 */
export function restrictToOwner(path: string): void {
  let mode: number;
  try {
    mode = statSync(path).mode & 0o777;
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return;
    throw error;
  }
  if ((mode & 0o077) === 0) return;
  try {
    chmodSync(path, 0o600);
  } catch (error) {
    if (errorCode(error) !== 'EPERM') throw error;
    process.emitWarning(
      `${path} is readable by others (mode 0${mode.toString(8)}) and this process cannot change that: ` +
        'give it to the user Sluice runs as, or run chmod 600 on it',
    );
  }
}
