// Writes .vite/modules.json next to Vite's manifest: which output chunk holds each of the console's
// own modules. The manifest names a chunk only by its facade module, and a page inside a shared
// chunk (the sign-in pages) has none; scripts/route-size.mjs reads this to find a page's chunk.
import { relative } from 'node:path';
import type { Plugin } from 'vite';

export function moduleMap(): Plugin {
  let root = '';
  return {
    name: 'sluice:module-map',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    generateBundle(_options, bundle) {
      const chunkOf: Record<string, string> = {};
      for (const item of Object.values(bundle)) {
        if (item.type !== 'chunk') continue;
        for (const id of item.moduleIds) {
          if (id.startsWith(root) && !id.includes('node_modules'))
            chunkOf[relative(root, id)] = item.fileName;
        }
      }
      this.emitFile({
        type: 'asset',
        fileName: '.vite/modules.json',
        source: JSON.stringify(chunkOf, null, 1),
      });
    },
  };
}
