/**
 * Both pumps (the web stream of fetch and node:http, the undici handler writer) send each chunk
 * at its offset in `schedule`, call the pacer after the wait, and do not count time a pacer held
 * the stream: after a hold, the rest keeps its pace.
 */
import { expect, test } from 'vitest';
import { replyStreamBody, type MockReply, type ReplyStream, type StreamPacer } from './mock-reply.js';
import { startHandler, writeReplyToHandler } from './write-reply-to-handler.js';

const encoder = new TextEncoder();
const SCHEDULE = [0, 40, 80, 120];
const HOLD_MS = 150;

/** A pacer that holds chunk 2 for HOLD_MS (a timer stands in for the test releasing it) and notes when each chunk is let go. */
function holdingPacer(): { pacer: StreamPacer; times: number[]; released: () => number; ended: Promise<[number, string]> } {
  const times: number[] = [];
  let releasedAt = 0;
  let end!: (value: [number, string]) => void;
  const ended = new Promise<[number, string]>((resolve) => (end = resolve));
  const pacer: StreamPacer = {
    beforeChunk(index) {
      times[index] = performance.now();
      if (index !== 2) return undefined;
      return new Promise((resolve) =>
        setTimeout(() => {
          releasedAt = performance.now();
          resolve();
        }, HOLD_MS),
      );
    },
    ended: (delivered, how) => end([delivered, how]),
  };
  return { pacer, times, released: () => releasedAt, ended };
}

function stream(pacer: StreamPacer): ReplyStream {
  return { chunks: ['a', 'b', 'c', 'd'].map((text) => encoder.encode(text)), intervalMs: 0, schedule: SCHEDULE, failAfter: undefined, pacer };
}

/**
 * Chunk i was let go no earlier than its offset; chunk 2 was held HOLD_MS, and chunk 3 comes its
 * pause (40 ms) after the release, less what chunk 2 was late by (the schedule stays absolute,
 * moved on by the hold): counted, the hold would have made chunk 3 due before the release.
 */
function expectPaced(started: number, times: number[], released: number, arrived: number[]) {
  for (let i = 0; i < 4; i++) expect(times[i]! - started, `chunk ${i}`).toBeGreaterThanOrEqual(SCHEDULE[i]! + (i === 3 ? HOLD_MS : 0) - 1);
  const chunk2Late = times[2]! - started - SCHEDULE[2]!;
  expect(times[3]! - released).toBeGreaterThanOrEqual(40 - chunk2Late - 1);
  expect(arrived[3]! - started).toBeGreaterThanOrEqual(120 + HOLD_MS - 1);
}

test('the web stream: chunks on schedule, the pacer after the wait, the held time not counted', async () => {
  const { pacer, times, released, ended } = holdingPacer();
  const started = performance.now();
  const reader = replyStreamBody(stream(pacer), () => new Error('cut')).getReader();
  const arrived: number[] = [];
  const texts: string[] = [];
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    arrived.push(performance.now());
    texts.push(new TextDecoder().decode(read.value));
  }
  expect(texts).toEqual(['a', 'b', 'c', 'd']);
  expectPaced(started, times, released(), arrived);
  expect(await ended).toEqual([4, 'complete']);
});

test('the undici writer: the same, for old- and new-style handlers', async () => {
  for (const style of ['legacy', 'new'] as const) {
    const { pacer, times, released, ended } = holdingPacer();
    const arrived: number[] = [];
    const texts: string[] = [];
    let done!: () => void;
    const complete = new Promise<void>((resolve) => (done = resolve));
    const onChunk = (chunk: Buffer) => {
      arrived.push(performance.now());
      texts.push(chunk.toString());
    };
    const handler =
      style === 'legacy'
        ? { onConnect() {}, onHeaders: () => true, onData: (chunk: Buffer) => (onChunk(chunk), true), onComplete: done, onError: (error: Error) => expect.fail(error.message) }
        : { onRequestStart() {}, onResponseStart() {}, onResponseData: (_c: unknown, chunk: Buffer) => onChunk(chunk), onResponseEnd: done, onResponseError: (_c: unknown, error: Error) => expect.fail(error.message) };
    const reply: MockReply = { status: 200, headers: { 'content-type': 'text/plain' }, body: null, stream: stream(pacer), delay: 0, fault: undefined };
    const started = performance.now();
    await writeReplyToHandler(startHandler(handler), reply, 'GET', new URL('https://x.test/s'));
    await complete;
    expect(texts, style).toEqual(['a', 'b', 'c', 'd']);
    expectPaced(started, times, released(), arrived);
    expect(await ended).toEqual([4, 'complete']);
  }
});
