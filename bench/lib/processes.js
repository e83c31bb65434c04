// Child processes of the benchmark: each target runs in its own process so its CPU and memory are its own.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** Starts `node <script>` and resolves with the URL it prints in its "listening on http://…" line. */
export function startListening(name, script, env = {}, timeoutMs = 30_000) {
  const child = spawn(process.execPath, [script], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${name} did not start within ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    const onData = (chunk) => {
      output += chunk;
      const match = /listening on (http:\/\/[\d.]+:\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        child.stdout.off('data', onData);
        child.stdout.resume();
        resolve({ name, child, url: match[1] });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited with code ${code} before listening:\n${output}`));
    });
  });
}

/** Stops a child with SIGTERM, then SIGKILL if it lingers. */
export function stop(proc) {
  if (!proc || proc.child.exitCode !== null || proc.child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => proc.child.kill('SIGKILL'), 5_000);
    proc.child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    proc.child.kill('SIGTERM');
  });
}

/**
 * The process's memory read at once, and again once its RSS has stopped moving (two readings 250 ms
 * apart within 1 MiB, at most 5 s later). Right after its first upstream calls Sluice's RSS rises by
 * about 30 MiB of native memory for a tenth of a second (V8 compiling undici's HTTP parser, a
 * WebAssembly module, to optimized code) and falls back; a reading at once catches or misses that at
 * random, the settled one does not (the peak figure reports it).
 */
export async function memoryNowAndSettled(pid) {
  const now = memoryOf(pid);
  let last = now;
  for (const deadline = Date.now() + 5000; Date.now() < deadline;) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const next = memoryOf(pid);
    if (Math.abs(next.rssMiB - last.rssMiB) < 1) return { ...now, settledMiB: next.rssMiB };
    last = next;
  }
  return { ...now, settledMiB: last.rssMiB };
}

/** Resident and peak resident memory of a process, in MiB (Linux /proc). */
export function memoryOf(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (field) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN);
    return { rssMiB: kib('VmRSS') / 1024, peakMiB: kib('VmHWM') / 1024 };
  } catch {
    return { rssMiB: NaN, peakMiB: NaN };
  }
}
