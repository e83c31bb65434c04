// The scripted life of a fake upstream task (a midjourney-proxy drawing, a Suno song): every read of a task
// (a fetch, a batch fetch that names it) advances it one step, and the directive of its submit decides how it
// ends. Both platforms keep their tasks in a TaskBook; their routes turn a record into their own wire shape.
import type { MockDirective } from '../directive.js';

/** How a task ends: SUCCESS with its results, FAILURE with a reason, or never (IN_PROGRESS for ever). */
export type TaskOutcome = 'success' | 'failure' | 'stuck';

export type TaskPlatform = 'midjourney' | 'suno';

/** midjourney-proxy's speed modes, taken from a path prefix (`/mj-fast/mj/…`). */
export type MidjourneyMode = 'fast' | 'turbo' | 'relax';

/**
 * Statuses both platforms use (midjourney-proxy's and the Suno API's share these names). A new midjourney
 * task is SUBMITTED, a new Suno one NOT_START; MODAL is a midjourney task waiting for `/mj/submit/modal`.
 */
export type TaskStatus = 'NOT_START' | 'SUBMITTED' | 'MODAL' | 'IN_PROGRESS' | 'SUCCESS' | 'FAILURE';

/** Reads a task takes to end, unless its directive says otherwise. */
export const DEFAULT_TASK_STEPS = 2;

export const DEFAULT_FAIL_REASON = 'The task failed upstream.';

/** What a test sees of a task (`mock.tasks`). */
export interface MockTask {
  readonly platform: TaskPlatform;
  /** The id the upstream handed out (midjourney: a 16-digit number; Suno: a UUID). */
  readonly id: string;
  /** midjourney-proxy's action (IMAGINE, UPSCALE…) or the Suno task's (MUSIC, LYRICS). */
  readonly action: string;
  /** The mode prefix the submit came under (midjourney only). */
  readonly mode: MidjourneyMode | undefined;
  /** The secret or key the submit carried. */
  readonly key: string | undefined;
  /** The submit's body as received (directive markers included). */
  readonly body: unknown;
  readonly status: TaskStatus;
  /** Percent, 0–100. */
  readonly progress: number;
  /** Reads that advanced the task so far. */
  readonly reads: number;
  readonly outcome: TaskOutcome;
  /** Reads after which the task ends (0: it ends at its submit). */
  readonly steps: number;
  /** The reason a failing task reports. */
  readonly failReason: string;
  /** Milliseconds since the epoch. */
  readonly submittedAt: number;
  readonly startedAt: number | undefined;
  readonly finishedAt: number | undefined;
}

export interface TaskLife {
  outcome: TaskOutcome;
  steps: number;
  failReason: string;
}

/** The life a submit's directive asks for. */
export const lifeFromDirective = (directive: MockDirective): TaskLife => ({
  outcome: directive.task_outcome ?? 'success',
  steps: directive.task_steps ?? DEFAULT_TASK_STEPS,
  failReason: directive.task_fail_reason ?? DEFAULT_FAIL_REASON,
});

export interface NewTask<Detail> {
  platform: TaskPlatform;
  id: string;
  action: string;
  mode?: MidjourneyMode;
  key: string | undefined;
  body: unknown;
  status: TaskStatus;
  life: TaskLife;
  detail: Detail;
}

/** One task and its platform's own fields (`detail`). */
export class TaskRecord<Detail> implements MockTask {
  readonly platform: TaskPlatform;
  readonly id: string;
  action: string;
  readonly mode: MidjourneyMode | undefined;
  readonly key: string | undefined;
  readonly body: unknown;
  status: TaskStatus;
  progress = 0;
  reads = 0;
  outcome: TaskOutcome;
  steps: number;
  failReason: string;
  readonly submittedAt = Date.now();
  startedAt: number | undefined;
  finishedAt: number | undefined;
  /** Last change, for the Suno API's updated_at. */
  updatedAt = this.submittedAt;
  detail: Detail;

  constructor(init: NewTask<Detail>) {
    this.platform = init.platform;
    this.id = init.id;
    this.action = init.action;
    this.mode = init.mode;
    this.key = init.key;
    this.body = init.body;
    this.status = init.status;
    this.outcome = init.life.outcome;
    this.steps = init.life.steps;
    this.failReason = init.life.failReason;
    this.detail = init.detail;
    // With no step to take (task_steps: 0), the task ends at its submit.
    if (this.status !== 'MODAL') this.settle();
  }

  get finished(): boolean {
    return this.status === 'SUCCESS' || this.status === 'FAILURE';
  }

  setLife(life: Partial<TaskLife>): void {
    if (life.outcome !== undefined) this.outcome = life.outcome;
    if (life.steps !== undefined) this.steps = life.steps;
    if (life.failReason !== undefined) this.failReason = life.failReason;
  }

  /** A modal task confirmed (`/mj/submit/modal`): it starts its life, perhaps a new one. */
  confirm(life: Partial<TaskLife>): void {
    this.setLife(life);
    this.status = 'SUBMITTED';
    this.updatedAt = Date.now();
    this.settle();
  }

  /** One read: the task moves one step towards its end (a modal or finished task stays put). */
  advance(): void {
    if (this.finished || this.status === 'MODAL') return;
    this.reads += 1;
    this.settle();
  }

  private settle(): void {
    const now = Date.now();
    if (this.outcome !== 'stuck' && this.reads >= this.steps) {
      this.startedAt ??= now;
      this.finishedAt = now;
      this.status = this.outcome === 'success' ? 'SUCCESS' : 'FAILURE';
      if (this.status === 'SUCCESS') this.progress = 100;
      this.updatedAt = now;
      return;
    }
    if (this.reads === 0) return;
    this.startedAt ??= now;
    this.status = 'IN_PROGRESS';
    // A stuck task stops one step short of the end.
    const step = Math.min(this.reads, Math.max(this.steps - 1, 0));
    this.progress = this.steps === 0 ? 0 : Math.floor((100 * step) / this.steps);
    this.updatedAt = now;
  }
}

/** The tasks of one platform, by id (forgotten on reset). */
export class TaskBook<Detail> {
  readonly tasks = new Map<string, TaskRecord<Detail>>();

  add(init: NewTask<Detail>): TaskRecord<Detail> {
    const record = new TaskRecord(init);
    this.tasks.set(record.id, record);
    return record;
  }

  get(id: string): TaskRecord<Detail> | undefined {
    return this.tasks.get(id);
  }

  /** Reads a task: advances it and returns it. */
  read(id: string): TaskRecord<Detail> | undefined {
    const task = this.tasks.get(id);
    task?.advance();
    return task;
  }

  clear(): void {
    this.tasks.clear();
  }
}

/** The Percent string both platforms report ("0%".."100%"). */
export const percent = (task: MockTask): string => `${task.progress}%`;
