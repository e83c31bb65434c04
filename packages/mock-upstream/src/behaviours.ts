// Server-level behaviour for tests that cannot put a marker in the request body: a standing directive per
// scope (all requests, one path, one API key, or both) and a queue of one-shot directives.
import { parseDirective, type MockDirective } from './directive.js';

/** Which requests a behaviour applies to; an omitted field matches every request. */
export interface BehaviourScope {
  /** Request path, e.g. "/v1/chat/completions". */
  path?: string;
  /** The bearer key the request carries (a channel's key, when a gateway calls the mock). */
  key?: string;
}

export interface QueueScope extends BehaviourScope {
  /** How many matching requests the queued directive applies to (default 1). */
  times?: number;
}

interface Standing {
  scope: BehaviourScope;
  directive: MockDirective;
}

interface Queued extends Standing {
  remaining: number;
}

const sameScope = (a: BehaviourScope, b: BehaviourScope): boolean => a.path === b.path && a.key === b.key;

const matches = (scope: BehaviourScope, path: string, key: string | undefined): boolean =>
  (scope.path === undefined || scope.path === path) && (scope.key === undefined || scope.key === key);

/** Key-scoped beats path-scoped beats unscoped, so a test can fault everything but one channel. */
const specificity = (scope: BehaviourScope): number =>
  (scope.key === undefined ? 0 : 2) + (scope.path === undefined ? 0 : 1);

export class Behaviours {
  private standing: Standing[] = [];
  private queue: Queued[] = [];

  /** Sets (or with null removes) the standing directive of a scope. */
  set(directive: MockDirective | null, scope: BehaviourScope = {}): void {
    this.standing = this.standing.filter((entry) => !sameScope(entry.scope, scope));
    if (directive !== null) this.standing.push({ scope: { ...scope }, directive: parseDirective(directive) });
  }

  /** Queues a directive for the next `times` matching requests, after those queued before it. */
  enqueue(directive: MockDirective, { times = 1, ...scope }: QueueScope = {}): void {
    this.queue.push({ scope, directive: parseDirective(directive), remaining: times });
  }

  /** Queued directives not used yet, counting each remaining time. */
  get pending(): number {
    return this.queue.reduce((sum, entry) => sum + entry.remaining, 0);
  }

  clear(): void {
    this.standing = [];
    this.queue = [];
  }

  /** The directive for one request: the first matching queued one (used up), else the most specific standing one. */
  take(path: string, key: string | undefined): MockDirective {
    if (this.queue.length > 0) {
      const index = this.queue.findIndex((entry) => matches(entry.scope, path, key));
      const entry = this.queue[index];
      if (entry !== undefined) {
        entry.remaining -= 1;
        if (entry.remaining <= 0) this.queue.splice(index, 1);
        return entry.directive;
      }
    }
    let best: Standing | undefined;
    for (const entry of this.standing) {
      if (matches(entry.scope, path, key) && (!best || specificity(entry.scope) >= specificity(best.scope))) {
        best = entry;
      }
    }
    return best?.directive ?? {};
  }
}
