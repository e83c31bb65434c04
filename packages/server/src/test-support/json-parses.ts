// What JSON.parse is given while code runs: how a test shows that a reader took events from their bytes
// instead of parsing them.

/** Runs `read` with JSON.parse watched: its result, and the texts that were parsed, in order. */
export function watchingParses<T>(read: () => T): { result: T; parsed: string[] } {
  const parse = JSON.parse;
  const parsed: string[] = [];
  JSON.parse = ((text: string, reviver?: Parameters<typeof parse>[1]) => {
    parsed.push(text);
    return parse(text, reviver) as unknown;
  }) as typeof JSON.parse;
  try {
    return { result: read(), parsed };
  } finally {
    JSON.parse = parse;
  }
}
