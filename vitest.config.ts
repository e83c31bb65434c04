import { defineConfig } from 'vitest/config';

// One run covers every package. Workspace packages resolve to their TypeScript sources
// through the "source" export condition, so tests never need a build first.
export default defineConfig({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    passWithNoTests: true,
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          include: [
            'packages/shared/src/**/*.test.ts',
            'packages/server/src/**/*.test.ts',
            'packages/mock-upstream/src/**/*.test.ts',
          ],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        // antd's CommonJS build (its "main") cannot be loaded by Node 20 here (it requires an ES-only
        // dependency); the ES build is what the browser bundle uses anyway.
        resolve: { alias: [{ find: /^antd$/, replacement: 'antd/es/index.js' }] },
        test: {
          name: 'web',
          environment: 'happy-dom',
          include: ['packages/web/src/**/*.test.{ts,tsx}'],
        },
      },
    ],
  },
});
