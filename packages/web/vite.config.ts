import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { CHUNK_GROUPS, PRELOADED_CHUNKS } from './scripts/chunk-groups.js';
import { firstLoadPreload } from './scripts/first-load-preload.js';
import { moduleMap } from './scripts/module-map.js';

/**
 * `vite build --ssr src/first-paint/process-main.ts`: the first-paint renderer the server runs in a child process
 * (src/first-paint/), one self-contained file in dist-first-paint/ beside the console's files, never served.
 */
const firstPaintBuild = defineConfig({
  plugins: [react()],
  publicDir: false,
  // antd and React in their production form, as in the browser (else antd marks its classes dev-only).
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  resolve: { conditions: ['source'] },
  ssr: { noExternal: true, resolve: { conditions: ['source'], externalConditions: ['source'] } },
  build: {
    outDir: 'dist-first-paint',
    emptyOutDir: true,
    // Smaller to read in when the renderer starts.
    minify: true,
    rolldownOptions: {
      output: { entryFileNames: 'first-paint-renderer.js', codeSplitting: false },
    },
  },
});

const consoleBuild = defineConfig({
  // firstLoadPreload: index.html preloads the page's chunks (scripts/first-load-preload.ts);
  // moduleMap: .vite/modules.json for scripts/route-size.mjs.
  plugins: [react(), firstLoadPreload(PRELOADED_CHUNKS), moduleMap()],
  resolve: { conditions: ['source'] },
  server: {
    // `npm run dev`: the console on Vite, every server route forwarded to the server.
    proxy: Object.fromEntries(
      [
        '/api',
        '/v1',
        '/v1beta',
        '/pg',
        '/mj',
        '/fast/mj',
        '/turbo/mj',
        '/relax/mj',
        '/suno',
        '/healthz',
        '/readyz',
      ].map((prefix) => [prefix, `http://localhost:${process.env.PORT ?? 3000}`]),
    ),
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // scripts/route-size.mjs reads it to report what each route loads.
    manifest: true,
    chunkSizeWarningLimit: 1200,
    rolldownOptions: {
      treeshake: {
        // packages/shared is pure (constants, schemas, functions) but its package.json cannot say
        // so; without this every page would carry zod and the option registry for one constant.
        moduleSideEffects: [{ test: /[\\/]packages[\\/]shared[\\/]src[\\/]/, sideEffects: false }],
      },
      // A few cacheable chunks instead of one per set of pages sharing a module (scripts/chunk-groups.ts).
      output: { codeSplitting: { groups: CHUNK_GROUPS } },
    },
  },
});

export default defineConfig(({ isSsrBuild }) => (isSsrBuild ? firstPaintBuild : consoleBuild));
