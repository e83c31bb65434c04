// Request loggers made on first use. Fastify gives every request a child logger carrying its id;
// building one costs more than the rest of a relay call's HTTP handling, and almost every request
// logs nothing (access logs are off). This child is created only when a line is actually written.
import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions } from 'fastify/types/logger.js';

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/** What pino offers beyond Fastify's minimal logger type. */
type Logger = FastifyBaseLogger & {
  isLevelEnabled?(level: string): boolean;
  bindings?(): Bindings;
};

class RequestLogger {
  private made: Logger | undefined;

  constructor(
    private readonly parent: Logger,
    private readonly bindingsOf: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  private get real(): Logger {
    this.made ??= this.parent.child(this.bindingsOf, this.options) as Logger;
    return this.made;
  }

  get level(): string {
    return this.made?.level ?? this.options.level ?? this.parent.level;
  }

  set level(level: string) {
    this.real.level = level;
  }

  private write(level: Level, args: unknown[]): void {
    // Below the level nothing is written, so nothing needs the child (unless the route sets its own level).
    if (!this.made && this.options.level === undefined && this.parent.isLevelEnabled?.(level) === false) {
      return;
    }
    (this.real[level] as (...a: unknown[]) => void)(...args);
  }

  // Methods, not arrow fields: every request makes one of these, and seven closures each was waste.
  fatal(...args: unknown[]): void {
    this.write('fatal', args);
  }
  error(...args: unknown[]): void {
    this.write('error', args);
  }
  warn(...args: unknown[]): void {
    this.write('warn', args);
  }
  info(...args: unknown[]): void {
    this.write('info', args);
  }
  debug(...args: unknown[]): void {
    this.write('debug', args);
  }
  trace(...args: unknown[]): void {
    this.write('trace', args);
  }
  silent(): void {}

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.real.child(bindings, options);
  }

  isLevelEnabled(level: string): boolean {
    return (this.made ?? this.parent).isLevelEnabled?.(level) ?? true;
  }

  bindings(): Bindings {
    return this.real.bindings?.() ?? this.bindingsOf;
  }
}

/** Fastify's `childLoggerFactory`: the request's logger, made when first written to. */
export function lazyRequestLogger(
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  return new RequestLogger(logger, bindings, options) as unknown as FastifyBaseLogger;
}
