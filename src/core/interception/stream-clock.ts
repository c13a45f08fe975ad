/**
 * One timer queue for every stream in the process: the due times of the chunks waiting to go
 * in a min-heap, and a single `setTimeout` for the earliest. A thousand paced streams cost one
 * timer, not one each per chunk.
 */
export interface StreamClock {
  /**
   * Resolve at `atMs` (on `performance.now()`'s clock), or at once when it has passed; reject
   * with the signal's reason when it aborts first.
   */
  until(atMs: number, signal?: AbortSignal | null): Promise<void>;
  /** How many waits are queued (for tests and the bench). */
  readonly pending: number;
}

interface Waiter {
  at: number;
  /** Insertion order: waits due at the same time resolve in the order they were asked. */
  order: number;
  resolve: () => void;
  /** Set when its signal aborted: skipped when it reaches the top. */
  cancelled: boolean;
}

function earlier(a: Waiter, b: Waiter): boolean {
  return a.at < b.at || (a.at === b.at && a.order < b.order);
}

/**
 * A waiter due within this much of now goes with the timer that fired: timers have whole
 * milliseconds, so one armed for the rest of a fraction would fire a millisecond late.
 */
const EARLY_MS = 0.5;

/** A clock of its own (the process shares `streamClock`). */
export function createStreamClock(now: () => number = () => performance.now()): StreamClock {
  const heap: Waiter[] = [];
  let live = 0;
  let order = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let armedFor = Infinity;

  function push(waiter: Waiter): void {
    let i = heap.push(waiter) - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!earlier(heap[i]!, heap[parent]!)) break;
      [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
      i = parent;
    }
  }

  function pop(): Waiter {
    const top = heap[0]!;
    const last = heap.pop()!;
    if (heap.length > 0) {
      heap[0] = last;
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        const right = left + 1;
        let least = i;
        if (left < heap.length && earlier(heap[left]!, heap[least]!)) least = left;
        if (right < heap.length && earlier(heap[right]!, heap[least]!)) least = right;
        if (least === i) break;
        [heap[i], heap[least]] = [heap[least]!, heap[i]!];
        i = least;
      }
    }
    return top;
  }

  function arm(): void {
    while (heap.length > 0 && heap[0]!.cancelled) pop();
    if (heap.length === 0) {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      armedFor = Infinity;
      return;
    }
    const at = heap[0]!.at;
    if (timer !== undefined && armedFor <= at) return;
    if (timer !== undefined) clearTimeout(timer);
    armedFor = at;
    timer = setTimeout(fire, Math.max(0, at - now()));
  }

  function fire(): void {
    timer = undefined;
    armedFor = Infinity;
    const due = now() + EARLY_MS;
    while (heap.length > 0 && heap[0]!.at <= due) {
      const waiter = pop();
      if (waiter.cancelled) continue;
      live--;
      waiter.resolve();
    }
    arm();
  }

  return {
    until(atMs, signal) {
      if (signal?.aborted) return Promise.reject(signal.reason);
      if (atMs <= now()) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const waiter: Waiter = { at: atMs, order: order++, resolve, cancelled: false };
        if (signal != null) {
          const onAbort = () => {
            if (waiter.cancelled) return;
            waiter.cancelled = true;
            live--;
            reject(signal.reason);
            arm();
          };
          signal.addEventListener('abort', onAbort, { once: true });
          waiter.resolve = () => {
            signal.removeEventListener('abort', onAbort);
            resolve();
          };
        }
        live++;
        push(waiter);
        arm();
      });
    },
    get pending() {
      return live;
    },
  };
}

const CLOCK = Symbol.for('scenario-harness.stream-clock');

/**
 * The process's one clock, on `globalThis` so two copies of the package (a dev server's reload,
 * a test runner) share it too.
 */
export const streamClock: StreamClock = ((globalThis as Record<symbol, StreamClock | undefined>)[CLOCK] ??= createStreamClock());
