import { expect, test } from 'vitest';
import { createStreamClock, streamClock } from './stream-clock.js';

test('waits resolve in the order of their due times, whatever order they were asked in', async () => {
  const clock = createStreamClock();
  const start = performance.now();
  const order: number[] = [];
  await Promise.all([30, 10, 20, 10, 0].map((ms, i) => clock.until(start + ms).then(() => order.push(i))));
  expect(order).toEqual([4, 1, 3, 2, 0]);
  expect(clock.pending).toBe(0);
});

test('a wait resolves no earlier than its time, less the half millisecond a timer rounds', async () => {
  const clock = createStreamClock();
  const at = performance.now() + 15;
  await clock.until(at);
  expect(performance.now()).toBeGreaterThanOrEqual(at - 0.5);
});

test('a past time resolves at once; an aborted signal rejects with its reason and leaves the queue', async () => {
  const clock = createStreamClock();
  await clock.until(performance.now() - 5);
  const controller = new AbortController();
  const waiting = clock.until(performance.now() + 60_000, controller.signal);
  expect(clock.pending).toBe(1);
  controller.abort(new Error('gone'));
  await expect(waiting).rejects.toThrow('gone');
  expect(clock.pending).toBe(0);
  await expect(clock.until(performance.now() + 10, controller.signal)).rejects.toThrow('gone');
});

test('the process shares one clock, on globalThis', () => {
  expect((globalThis as Record<symbol, unknown>)[Symbol.for('scenario-harness.stream-clock')]).toBe(streamClock);
});
