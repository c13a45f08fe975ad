/**
 * Issue 41, item 1: a `delay` step waits between a socket mock's steps, and a harness made with
 * `timing: 'instant'` skips it. One harness at a time: the process's interception answers
 * through the harness started last.
 */
import { expect, test } from 'vitest';
import { journalUntil, newKey, startSocketApp } from './socket-app.js';

const scenarios = {
  default: { name: 'Default', mocks: [], sockets: [{ url: 'wss://slow.example.com/feed', onConnect: [{ send: 'first' }, { delay: 400 }, { send: 'second' }] }] },
};

/** Milliseconds between the two frames the mock sent, by their journal entries. */
async function gapWith(timing: 'real' | 'instant'): Promise<number> {
  const app = await startSocketApp(scenarios, { timing });
  try {
    const harness = await app.client();
    const key = newKey();
    await app.call(harness, 'open', { key, client: 'ws', url: 'wss://slow.example.com/feed' });
    expect((await app.call(harness, 'wait', { key, count: 2 })).got).toEqual([{ text: 'first' }, { text: 'second' }]);
    const frames = (await journalUntil(harness, (all) => all.filter((entry) => entry.kind === 'socket.frame').length === 2)).filter((entry) => entry.kind === 'socket.frame');
    return Date.parse(frames[1]!.at) - Date.parse(frames[0]!.at);
  } finally {
    await app.stop();
  }
}

test('a delay step waits between two frames', async () => {
  expect(await gapWith('real')).toBeGreaterThanOrEqual(395);
});

test("timing: 'instant' skips it", async () => {
  expect(await gapWith('instant')).toBeLessThan(200);
});
