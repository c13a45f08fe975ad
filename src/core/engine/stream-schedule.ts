import type { StreamTiming } from '../types.js';

/**
 * mulberry32: a 32-bit seeded generator, enough to vary pauses the same way every run.
 * @see https://gist.github.com/tommyettinger/46a874533244883189143505d203312c
 */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** True when a timing makes any chunk wait (a schedule of zeros is no schedule). */
export function hasDelays(timing: StreamTiming | undefined): timing is StreamTiming {
  return timing !== undefined && ((timing.firstMs ?? 0) > 0 || (timing.intervalMs ?? 0) > 0 || timing.tokensPerSecond !== undefined);
}

/**
 * When each chunk goes, in milliseconds from the stream's headers: the first at `firstMs`, each
 * next one a pause after the one before, of `intervalMs` or of its tokens at `tokensPerSecond`
 * (a chunk of 0 tokens, which carries no text, follows at once). `jitter` scales each pause
 * (and `firstMs`) by a factor in [1 - jitter, 1 + jitter) drawn from mulberry32(`seed`): the
 * same timing and tokens always give the same schedule. `tokens[i]` is chunk i's token count;
 * a number means that many chunks of one token each. `undefined` when nothing waits.
 */
export function streamSchedule(timing: StreamTiming | undefined, tokens: readonly number[] | number): number[] | undefined {
  if (!hasDelays(timing)) return undefined;
  const { firstMs = 0, intervalMs = 0, tokensPerSecond, jitter = 0, seed = 0 } = timing;
  const count = typeof tokens === 'number' ? tokens : tokens.length;
  const random = jitter > 0 ? mulberry32(seed) : undefined;
  const vary = (ms: number) => (random === undefined || ms === 0 ? ms : ms * (1 + jitter * (2 * random() - 1)));
  const msPerToken = tokensPerSecond === undefined ? 0 : 1000 / tokensPerSecond;
  const schedule = new Array<number>(count);
  let at = vary(firstMs);
  for (let i = 0; i < count; i++) {
    if (i > 0) {
      const weight = typeof tokens === 'number' ? 1 : tokens[i]!;
      at += weight === 0 ? 0 : vary(tokensPerSecond === undefined ? intervalMs : weight * msPerToken);
    }
    // Thousandths of a millisecond: readable in a journal or a test, and no drift from rounding.
    schedule[i] = Math.round(at * 1000) / 1000;
  }
  return schedule;
}
