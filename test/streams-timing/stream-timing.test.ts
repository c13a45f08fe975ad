/**
 * `timing` on `stream.chunks` and `stream.events` over real HTTP: fetch, undici.request and
 * node:https each get the chunks no earlier than their schedule, in order; seeded jitter gives
 * the same schedule again; `stream.intervalMs` still paces. Lateness on a shared machine is not
 * asserted tightly (the bench measures it): a chunk can never come early, and the whole stream
 * ends well within a generous bound.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { streamSchedule } from '../../src/core/engine/stream-schedule.js';
import { arrivals, CLIENTS, startTimingApp } from './timing-app.js';

const CHUNKS = ['one ', 'two ', 'three ', 'four'];
const PACED = { firstMs: 60, intervalMs: 40 };
const JITTERED = { firstMs: 30, intervalMs: 40, jitter: 0.5, seed: 42 };
const TOKENS = { firstMs: 10, tokensPerSecond: 25 };

const scenarios = {
  default: { name: 'Default', mocks: [] },
  paced: {
    name: 'Paced',
    mocks: [
      { url: 'https://stream.x.test/chunks', response: { stream: { chunks: CHUNKS, timing: PACED } } },
      { url: 'https://stream.x.test/events', response: { stream: { events: CHUNKS.map((data) => ({ data })), timing: TOKENS } } },
      { url: 'https://stream.x.test/jitter', response: { stream: { chunks: CHUNKS, timing: JITTERED } } },
      { url: 'https://stream.x.test/legacy', response: { stream: { chunks: CHUNKS, intervalMs: 30 } } },
      { url: 'https://stream.x.test/cut', response: { stream: { chunks: CHUNKS, timing: PACED, failAfter: 2 } } },
    ],
  },
};

let app: Awaited<ReturnType<typeof startTimingApp>>;
beforeAll(async () => {
  app = await startTimingApp(scenarios);
});
afterAll(() => app?.stop());

/** Every chunk at or after its offset (the clock may let one go half a millisecond early). */
function expectOnSchedule(arrived: number[], schedule: readonly number[]) {
  expect(arrived).toHaveLength(schedule.length);
  arrived.forEach((ms, i) => expect(ms, `chunk ${i}`).toBeGreaterThanOrEqual(schedule[i]! - 1));
  for (let i = 1; i < arrived.length; i++) expect(arrived[i]).toBeGreaterThanOrEqual(arrived[i - 1]!);
}

test.each(CLIENTS)('%s reads stream.chunks on their schedule: firstMs, then intervalMs', async (client) => {
  const read = await app.read(client, 'paced', 'https://stream.x.test/chunks');
  expect(read.error).toBeUndefined();
  expect(read.pieces.map((piece) => piece.text).join('')).toBe(CHUNKS.join(''));
  expectOnSchedule(arrivals(read, CHUNKS), [60, 100, 140, 180]);
  expect(read.endMs).toBeLessThan(180 + 3000);
});

test.each(CLIENTS)('%s reads stream.events paced by tokensPerSecond (one event, one token)', async (client) => {
  const read = await app.read(client, 'paced', 'https://stream.x.test/events');
  const events = CHUNKS.map((data) => `data: ${data}\n\n`);
  expect(read.pieces.map((piece) => piece.text).join('')).toBe(events.join(''));
  expectOnSchedule(arrivals(read, events), [10, 50, 90, 130]);
});

test('seeded jitter: the schedule is the same for the same seed, call after call, and every client keeps it', async () => {
  const schedule = streamSchedule(JITTERED, CHUNKS.length)!;
  expect(streamSchedule(JITTERED, CHUNKS.length)).toEqual(schedule);
  expect(schedule).not.toEqual([30, 70, 110, 150]);
  for (const client of CLIENTS) {
    for (let run = 0; run < 2; run++) expectOnSchedule(arrivals(await app.read(client, 'paced', 'https://stream.x.test/jitter'), CHUNKS), schedule);
  }
});

test.each(CLIENTS)('%s: stream.intervalMs paces as timing.intervalMs does', async (client) => {
  expectOnSchedule(arrivals(await app.read(client, 'paced', 'https://stream.x.test/legacy'), CHUNKS), [0, 30, 60, 90]);
});

test.each(CLIENTS)('%s: failAfter cuts a paced stream after its chunks, on their schedule', async (client) => {
  const read = await app.read(client, 'paced', 'https://stream.x.test/cut');
  expect(read.error).toBeDefined();
  expect(read.pieces.map((piece) => piece.text).join('')).toBe('one two ');
  expectOnSchedule(arrivals(read, CHUNKS.slice(0, 2)), [60, 100]);
});
