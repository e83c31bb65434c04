// `node --import <this file> entry.ts`: runs the server's TypeScript sources as their own process,
// for the tests that must start the real entry point (signals, exit codes) without a build first.
import { register } from 'node:module';

register('./hooks.mjs', import.meta.url);
