// Load generation: autocannon for throughput under concurrency, an undici Client for sequential latency
// (autocannon reports whole milliseconds, too coarse for loopback round trips).
import autocannon from 'autocannon';
import { Client } from 'undici';

/** Runs autocannon for `duration` seconds and keeps the figures the report uses. */
export async function throughput({ url, path, headers, body, connections, duration }) {
  const result = await autocannon({
    url: url + path,
    method: 'POST',
    headers,
    body,
    connections,
    duration,
    timeout: 10,
  });
  return {
    rps: result.requests.total / result.duration,
    total: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    ok: result['2xx'],
    failed: result.non2xx + result.errors + result.timeouts,
  };
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/**
 * Sends `count` requests one after another on one keep-alive connection (after `warmup` unmeasured ones).
 * Measures, in microseconds, the time to the first body byte and to the end of the answer.
 */
export async function sequential({ url, path, headers, body, count, warmup }) {
  const client = new Client(url, { keepAliveTimeout: 60_000 });
  const firstByte = [];
  const total = [];
  let failed = 0;
  try {
    for (let i = 0; i < warmup + count; i++) {
      const start = process.hrtime.bigint();
      const res = await client.request({ path, method: 'POST', headers, body });
      let first = 0n;
      for await (const _chunk of res.body) if (first === 0n) first = process.hrtime.bigint();
      const end = process.hrtime.bigint();
      if (res.statusCode !== 200) failed++;
      if (i < warmup) continue;
      firstByte.push(Number((first || end) - start) / 1000);
      total.push(Number(end - start) / 1000);
    }
  } finally {
    await client.close();
  }
  firstByte.sort((a, b) => a - b);
  total.sort((a, b) => a - b);
  return {
    failed,
    firstByte: { p50: percentile(firstByte, 50), p99: percentile(firstByte, 99) },
    total: { p50: percentile(total, 50), p99: percentile(total, 99) },
  };
}
