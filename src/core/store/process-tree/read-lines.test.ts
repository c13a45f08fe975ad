import { PassThrough } from 'node:stream';
import { expect, test } from 'vitest';
import { readLines } from './read-lines.js';

/** A stream fed by the test, read by `readLines` with `maxBytes`; what it handed on, and why it refused. */
function reader(maxBytes: () => number, onLine: (line: string) => void = () => {}) {
  const stream = new PassThrough();
  const lines: string[] = [];
  const refusals: string[] = [];
  readLines(stream, {
    maxBytes,
    onLine: (line) => {
      lines.push(line);
      onLine(line);
    },
    onRefused: (reason) => refusals.push(reason),
  });
  /** Write each chunk and wait until `readLines` has seen it. */
  const feed = async (...chunks: (string | Buffer)[]) => {
    for (const chunk of chunks) {
      const seen = new Promise((resolve) => stream.once('data', resolve));
      stream.write(chunk);
      await seen;
    }
  };
  return { stream, lines, refusals, feed };
}

test('lines come whole across chunks, a character split between chunks included; empty lines are skipped', async () => {
  const { lines, refusals, feed } = reader(() => 100);
  const euro = Buffer.from('€');
  await feed('{"a":1}\n{"b"', ':2}\n\n{"c":"', euro.subarray(0, 1), Buffer.concat([euro.subarray(1), Buffer.from('"}\n')]));
  expect(lines).toEqual(['{"a":1}', '{"b":2}', '{"c":"€"}']);
  expect(refusals).toEqual([]);
});

test('the limit is read before each line: past it, the line is refused, and nothing after it is read', async () => {
  let limit = 10;
  const { lines, refusals, feed } = reader(
    () => limit,
    // The first line raises the limit for the lines after it, as a completed greeting does.
    () => (limit = 40),
  );
  await feed('short\n', `${'x'.repeat(30)}\n${'y'.repeat(41)}`, '\nlater\n');
  expect(lines).toEqual(['short', 'x'.repeat(30)]);
  expect(refusals).toEqual(['a line longer than 40 bytes']);
});

test('a complete line longer than the limit is refused even when it comes in one chunk with its newline', async () => {
  const { lines, refusals, feed } = reader(() => 1024);
  await feed(`${'z'.repeat(2048)}\n{"ok":1}\n`);
  expect(lines).toEqual([]);
  expect(refusals).toEqual(['a line longer than 1024 bytes']);
});

test('an exception while handling a line refuses the connection instead of reaching the process', async () => {
  const { refusals, feed } = reader(
    () => 100,
    () => {
      throw new TypeError("Cannot use 'in' operator to search for 'hello' in 1");
    },
  );
  await feed('1\n2\n');
  expect(refusals).toEqual(["a line that could not be handled (Cannot use 'in' operator to search for 'hello' in 1)"]);
});

test('a 48 MiB line in 64 KiB chunks is read in time linear in its length: each chunk is scanned once', async () => {
  const chunk = Buffer.alloc(64 * 1024, 'a');
  const count = 768;
  const { stream, lines } = reader(() => 64 * 1024 * 1024);
  const done = new Promise<void>((resolve) => stream.on('data', () => lines.length > 0 && resolve()));
  const started = performance.now();
  for (let n = 0; n < count; n++) stream.write(chunk);
  stream.write('\n');
  await done;
  const elapsed = performance.now() - started;
  expect(lines[0]?.length).toBe(count * chunk.length);
  // About 0.1 s here; scanning all the text held so far at every chunk (as this once did) took 28 s.
  expect(elapsed).toBeLessThan(3_000);
});
