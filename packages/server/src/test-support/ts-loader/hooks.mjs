// Module hooks for register.mjs: `.ts` files are transpiled one by one as Node loads them (types
// dropped, nothing checked: the type check is tsc's job), `./x.js` imports find their `./x.ts`, and the
// workspace packages resolve to their sources through the "source" export condition, as in vitest.
// Transpiled files are kept in the temporary folder by a hash of their text, so only the first start
// after a change pays for transpiling (about two seconds for the server).
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const COMPILER_OPTIONS = {
  module: ts.ModuleKind.ESNext,
  target: ts.ScriptTarget.ES2023,
  verbatimModuleSyntax: true,
  inlineSourceMap: true,
};

const CACHE_DIR = join(tmpdir(), `sluice-ts-loader-${process.getuid?.() ?? 'user'}`);
mkdirSync(CACHE_DIR, { recursive: true, mode: 0o700 });

const isRelative = (specifier) => specifier.startsWith('./') || specifier.startsWith('../');

export async function resolve(specifier, context, nextResolve) {
  if (specifier.startsWith('@sluice/')) {
    return nextResolve(specifier, { ...context, conditions: ['source', ...context.conditions] });
  }
  try {
    return await nextResolve(specifier, context);
  } catch (error) {
    const sourceFile =
      isRelative(specifier) && specifier.endsWith('.js') && error?.code === 'ERR_MODULE_NOT_FOUND';
    if (!sourceFile) throw error;
    return nextResolve(`${specifier.slice(0, -3)}.ts`, context);
  }
}

async function transpile(fileName) {
  const text = await readFile(fileName, 'utf8');
  const cached = join(
    CACHE_DIR,
    `${createHash('sha256').update(`${ts.version}\0${fileName}\0${text}`).digest('hex')}.js`,
  );
  try {
    return await readFile(cached, 'utf8');
  } catch {
    const { outputText } = ts.transpileModule(text, { fileName, compilerOptions: COMPILER_OPTIONS });
    // Written aside and renamed: a process starting beside this one reads a whole file or none.
    const partial = `${cached}.${process.pid}.tmp`;
    await writeFile(partial, outputText);
    await rename(partial, cached);
    return outputText;
  }
}

export async function load(url, context, nextLoad) {
  if (!url.startsWith('file:') || !url.endsWith('.ts')) return nextLoad(url, context);
  return { format: 'module', source: await transpile(fileURLToPath(url)), shortCircuit: true };
}
