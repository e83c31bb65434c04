// The text a scraper parses: counters and gauges by label values, histograms with cumulative buckets
// ending in +Inf, and label values and help texts escaped as the exposition format requires.
import { describe, expect, it } from 'vitest';
import { CounterFamily, GaugeFamily, HistogramFamily, writeFamilies } from './metric-families.js';

describe('metric families', () => {
  it('counts each combination of label values as its own series', () => {
    const calls = new CounterFamily('calls_total', 'Calls.', ['model', 'status']);
    calls.inc(['a', '200']);
    calls.inc(['a', '200'], 2);
    calls.inc(['a', '500']);
    calls.inc(['b', '200'], 0.5);
    expect(writeFamilies([calls]).split('\n')).toEqual([
      '# HELP calls_total Calls.',
      '# TYPE calls_total counter',
      'calls_total{model="a",status="200"} 3',
      'calls_total{model="a",status="500"} 1',
      'calls_total{model="b",status="200"} 0.5',
    ]);
  });

  it('keeps label values apart however they split', () => {
    const calls = new CounterFamily('calls_total', 'Calls.', ['x', 'y']);
    calls.inc(['a\0b', 'c']);
    calls.inc(['a', 'b\0c']);
    expect(writeFamilies([calls]).split('\n').slice(2)).toHaveLength(2);
  });

  it('writes histogram buckets cumulatively, with +Inf, sum and count', () => {
    const seconds = new HistogramFamily('took_seconds', 'Time.', [0.1, 1], ['format']);
    for (const value of [0.05, 0.1, 0.5, 3]) seconds.observe(['openai'], value);
    seconds.observe(['anthropic'], 2);
    expect(writeFamilies([seconds]).split('\n')).toEqual([
      '# HELP took_seconds Time.',
      '# TYPE took_seconds histogram',
      'took_seconds_bucket{format="openai",le="0.1"} 2',
      'took_seconds_bucket{format="openai",le="1"} 3',
      'took_seconds_bucket{format="openai",le="+Inf"} 4',
      'took_seconds_sum{format="openai"} 3.65',
      'took_seconds_count{format="openai"} 4',
      'took_seconds_bucket{format="anthropic",le="0.1"} 0',
      'took_seconds_bucket{format="anthropic",le="1"} 0',
      'took_seconds_bucket{format="anthropic",le="+Inf"} 1',
      'took_seconds_sum{format="anthropic"} 2',
      'took_seconds_count{format="anthropic"} 1',
    ]);
  });

  it('writes an unlabelled histogram with le as its only label', () => {
    const calls = new HistogramFamily('batch_calls', 'Calls per batch.', [1, 10]);
    calls.observe([], 5);
    expect(writeFamilies([calls])).toContain(
      'batch_calls_bucket{le="10"} 1\nbatch_calls_bucket{le="+Inf"} 1',
    );
    expect(writeFamilies([calls])).toContain('batch_calls_sum 5\nbatch_calls_count 1');
  });

  it('reads gauges at the scrape and escapes label values and help', () => {
    let open = 1;
    const gauge = new GaugeFamily('open', 'Open "things"\\now\nand later.', () => [[['a"b\\c\nd'], open]], [
      'name',
    ]);
    open = 7;
    const counter = new CounterFamily('empty_total', 'Nothing yet.');
    expect(writeFamilies([gauge, counter]).split('\n')).toEqual([
      '# HELP open Open "things"\\\\now\\nand later.',
      '# TYPE open gauge',
      'open{name="a\\"b\\\\c\\nd"} 7',
      '',
      '# HELP empty_total Nothing yet.',
      '# TYPE empty_total counter',
    ]);
  });
});
