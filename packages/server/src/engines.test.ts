// Installing on the supported Node versions gives no EBADENGINE warning: every package the lockfile
// installs (dev tools included) accepts the oldest Node the project supports and the one running.
import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const read = (path: string) => JSON.parse(readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8'));

describe('the engines of the installed packages', () => {
  it('accept the oldest supported Node and the running one', () => {
    const root = read('package.json') as { engines: { node: string } };
    const oldest = semver.minVersion(root.engines.node)?.version;
    expect(oldest).toBeDefined();
    const lock = read('package-lock.json') as {
      packages: Record<string, { version?: string; engines?: { node?: string } | string[] }>;
    };
    const refusing: string[] = [];
    for (const [path, entry] of Object.entries(lock.packages)) {
      const range = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
      if (!range || path === '') continue;
      for (const node of [oldest as string, process.versions.node]) {
        if (!semver.satisfies(node, range, { includePrerelease: true })) {
          refusing.push(`${path}@${entry.version ?? '?'} needs node ${range}, not ${node}`);
        }
      }
    }
    expect(refusing).toEqual([]);
  });
});
