/// <reference types="node" />
// The first-paint renderer as the server runs it: a child process (the server's http/first-paints.ts)
// that renders the first paints it is asked for, one at a time, and answers each with its id. A process
// of its own, so the memory the whole console takes goes back to the system when it stops.
import { renderFirstPaint } from './render';
import type { FirstPaint, FirstPaintRequest } from './render';

export interface FirstPaintJob {
  id: number;
  request: FirstPaintRequest;
}

export type FirstPaintAnswer = { id: number; firstPaint: FirstPaint | null } | { id: number; error: string };

let queue: Promise<void> = Promise.resolve();

process.on('message', (job: FirstPaintJob) => {
  queue = queue.then(async () => {
    let answer: FirstPaintAnswer;
    try {
      answer = { id: job.id, firstPaint: await renderFirstPaint(job.request) };
    } catch (error) {
      answer = { id: job.id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) };
    }
    process.send?.(answer);
  });
});

// The server went away (or stopped it): nothing is left to render for.
process.on('disconnect', () => process.exit(0));
