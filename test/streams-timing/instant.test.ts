/**
 * `createHarness({ timing: 'instant' })` and `HARNESS_TIMING=instant`: every stream's chunks and
 * every mock's `delay` go at once, far below their scheduled total, with the same bytes;
 * `error: 'timeout'` still never answers. Checked over real HTTP with each client.
 */
import { createHarness } from 'scenario-harness';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { CLIENTS, startTimingApp } from './timing-app.js';

const CHUNKS = ['slow ', 'and ', 'steady'];
/** 1 s before the first chunk, 1 s between chunks: 3 s in all when real. */
const SLOW = { firstMs: 1000, intervalMs: 1000 };

const scenarios = {
  default: { name: 'Default', mocks: [] },
  slow: {
    name: 'Slow',
    mocks: [
      { url: 'https://stream.x.test/chunks', response: { stream: { chunks: CHUNKS, timing: SLOW } } },
      { url: 'https://stream.x.test/legacy', response: { stream: { events: CHUNKS.map((data) => ({ data })), intervalMs: 1500 } } },
      { url: 'https://stream.x.test/delayed', response: { delay: 3000, body: 'late' } },
      { url: 'https://stream.x.test/hangs', response: { error: 'timeout' as const } },
      {
        method: 'POST' as const,
        url: 'https://api.openai.com/v1/chat/completions',
        response: { llm: { api: 'openai.chat' as const, text: 'One two three four five', timing: { firstMs: 1000, tokensPerSecond: 2 } } },
      },
    ],
  },
};

let app: Awaited<ReturnType<typeof startTimingApp>>;
beforeAll(async () => {
  app = await startTimingApp(scenarios, { timing: 'instant' });
});
afterAll(() => app?.stop());
afterEach(() => {
  delete process.env['HARNESS_TIMING'];
});

test.each(CLIENTS)('%s gets a 3-second stream whole, at once', async (client) => {
  for (const url of ['https://stream.x.test/chunks', 'https://stream.x.test/legacy']) {
    const read = await app.read(client, 'slow', url);
    expect(read.error).toBeUndefined();
    expect(read.pieces.map((piece) => piece.text).join('')).toBe(url.endsWith('chunks') ? CHUNKS.join('') : CHUNKS.map((data) => `data: ${data}\n\n`).join(''));
    expect(read.endMs).toBeLessThan(1000);
  }
});

test.each(CLIENTS)("%s: a mock's delay goes too", async (client) => {
  const read = await app.read(client, 'slow', 'https://stream.x.test/delayed');
  expect(read.pieces.map((piece) => piece.text).join('')).toBe('late');
  expect(read.endMs).toBeLessThan(1500);
});

test("error: 'timeout' still never answers (the client's own timeout ends it)", async () => {
  const harness = createHarness({ enabled: true, scenarios, timing: 'instant', announce: false, sideBySide: true });
  await harness.start();
  try {
    await harness.switchScenario('t-hang', 'slow');
    const started = performance.now();
    await expect(harness.run('t-hang', () => fetch('https://stream.x.test/hangs', { signal: AbortSignal.timeout(300) }))).rejects.toThrow();
    expect(performance.now() - started).toBeGreaterThanOrEqual(250);
  } finally {
    await harness.stop();
  }
});

test('an llm stream paced at 2 tokens a second comes at once', async () => {
  const harness = createHarness({ enabled: true, scenarios, timing: 'instant', announce: false, sideBySide: true });
  await harness.start();
  try {
    await harness.switchScenario('t-llm', 'slow');
    const started = performance.now();
    const response = await harness.run('t-llm', () => fetch('https://api.openai.com/v1/chat/completions', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'm', stream: true, messages: [] }) }));
    const text = await response.text();
    expect(text).toContain('"content":" five"');
    expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true);
    expect(performance.now() - started).toBeLessThan(1000);
  } finally {
    await harness.stop();
  }
});

test('HARNESS_TIMING=instant does the same when the options say nothing; timing: "real" overrides it', async () => {
  process.env['HARNESS_TIMING'] = 'instant';
  for (const [timing, fast] of [[undefined, true], ['real', false]] as const) {
    const harness = createHarness({ enabled: true, scenarios, announce: false, sideBySide: true, ...(timing === undefined ? {} : { timing }) });
    await harness.start();
    try {
      await harness.switchScenario('t-env', 'slow');
      const started = performance.now();
      const text = await harness.run('t-env', async () => (await fetch('https://stream.x.test/chunks')).text());
      expect(text).toBe(CHUNKS.join(''));
      const took = performance.now() - started;
      if (fast) expect(took).toBeLessThan(1000);
      else expect(took).toBeGreaterThanOrEqual(2999);
    } finally {
      await harness.stop();
    }
  }
});

test('a timing option or HARNESS_TIMING value that is neither instant nor real is refused, by name', () => {
  expect(() => createHarness({ enabled: true, scenarios, timing: 'fast' as 'instant' })).toThrow(/expected "timing" to be 'instant'.*instead got "fast"/);
  process.env['HARNESS_TIMING'] = 'quick';
  expect(() => createHarness({ enabled: true, scenarios })).toThrow(/HARNESS_TIMING to be 'instant' or 'real', instead got "quick"/);
});
