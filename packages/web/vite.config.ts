import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react()],
  resolve: { conditions: ['source'] },
  server: {
    proxy: {
      '/api': 'http://localhost:3000',
      '/v1': 'http://localhost:3000',
      '/pg': 'http://localhost:3000',
    },
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
    },
  },
});
