/**
 * `HARNESS_TIMING=instant` reaches the harness `scenario-harness serve` creates: a 3-second
 * stream from a scenario file comes at once; without the variable it keeps its schedule.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { expect, test } from 'vitest';
import { startServe } from '../standalone/serve-process.js';

const scenarios = {
  default: { name: 'Default', mocks: [] },
  slow: { name: 'Slow', mocks: [{ url: 'https://stream.x.test/chunks', response: { stream: { chunks: ['a', 'b', 'c'], timing: { firstMs: 1000, intervalMs: 1000 } } } }] },
};

async function readThroughServe(env: Record<string, string>): Promise<{ text: string; ms: number }> {
  const dir = await mkdtemp(join(tmpdir(), 'timing-serve-'));
  const file = join(dir, 'slow.json');
  await writeFile(file, JSON.stringify(scenarios));
  const serve = await startServe([file], { env });
  try {
    const headers = { 'x-harness-test-id': randomUUID() };
    await fetch(`${serve.url}/__scenario__`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: '{"scenario":"slow"}' });
    const started = performance.now();
    const text = await (await fetch(`${serve.url}/https/stream.x.test/chunks`, { headers })).text();
    return { text, ms: performance.now() - started };
  } finally {
    await serve.stop();
  }
}

test('serve with HARNESS_TIMING=instant sends a 3-second stream at once; without it, on schedule', async () => {
  const instant = await readThroughServe({ HARNESS_TIMING: 'instant' });
  expect(instant.text).toBe('abc');
  expect(instant.ms).toBeLessThan(1000);
  const real = await readThroughServe({ HARNESS_TIMING: '' });
  expect(real.text).toBe('abc');
  expect(real.ms).toBeGreaterThanOrEqual(2990);
});
