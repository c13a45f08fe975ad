import { expect, test } from 'vitest';
import { hasDelays, streamSchedule } from './stream-schedule.js';

test('no timing, or one where nothing waits, gives no schedule', () => {
  expect(streamSchedule(undefined, 3)).toBeUndefined();
  expect(streamSchedule({}, 3)).toBeUndefined();
  expect(streamSchedule({ jitter: 0.5, seed: 4 }, 3)).toBeUndefined();
  expect(hasDelays({ firstMs: 0, intervalMs: 0 })).toBe(false);
});

test('firstMs, then intervalMs between chunks', () => {
  expect(streamSchedule({ firstMs: 100, intervalMs: 20 }, 4)).toEqual([100, 120, 140, 160]);
  expect(streamSchedule({ intervalMs: 5 }, 3)).toEqual([0, 5, 10]);
});

test('tokensPerSecond paces by each chunk\'s tokens; a chunk with none follows at once', () => {
  // 50 tokens a second: 20 ms a token.
  expect(streamSchedule({ tokensPerSecond: 50 }, [0, 0, 1, 3, 0, 2])).toEqual([0, 0, 20, 80, 80, 120]);
  expect(streamSchedule({ firstMs: 300, tokensPerSecond: 100 }, 3)).toEqual([300, 310, 320]);
});

test('jitter varies each pause within [1 - jitter, 1 + jitter], the same way for the same seed', () => {
  const timing = { firstMs: 100, intervalMs: 20, jitter: 0.25, seed: 7 };
  const first = streamSchedule(timing, 50)!;
  expect(streamSchedule(timing, 50)).toEqual(first);
  expect(streamSchedule({ ...timing, seed: 8 }, 50)).not.toEqual(first);
  expect(first[0]).toBeGreaterThanOrEqual(75);
  expect(first[0]).toBeLessThanOrEqual(125);
  const pauses = first.slice(1).map((at, i) => at - first[i]!);
  for (const pause of pauses) {
    expect(pause).toBeGreaterThanOrEqual(15 - 0.002);
    expect(pause).toBeLessThanOrEqual(25 + 0.002);
  }
  // Not all alike: the pauses do vary.
  expect(new Set(pauses.map((pause) => Math.round(pause))).size).toBeGreaterThan(3);
});

test('offsets never go back and are in thousandths of a millisecond', () => {
  const schedule = streamSchedule({ tokensPerSecond: 33, jitter: 1, seed: 3 }, [1, 2, 0, 5, 1, 1])!;
  for (let i = 1; i < schedule.length; i++) expect(schedule[i]).toBeGreaterThanOrEqual(schedule[i - 1]!);
  for (const at of schedule) expect(Math.round(at * 1000) / 1000).toBe(at);
});
