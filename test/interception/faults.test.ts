/**
 * Faults beside `error: 'network'`: a connection reset, a timeout (the call hangs until the
 * client gives up), a malformed (truncated) body — through fetch, a captured fetch, undici and
 * node:http clients.
 */
import axios from 'axios';
import { request } from 'undici';
import { expect, test } from 'vitest';
import { startHarness } from '../engine/with-harness.js';

const capturedFetch = globalThis.fetch;
const API = 'https://api.faulty.test';

const scenarios = {
  default: {
    name: 'Faults',
    mocks: [
      { url: `${API}/reset`, response: { error: 'reset' as const } },
      { url: `${API}/refused`, response: { error: 'network' as const } },
      { url: `${API}/hang`, response: { error: 'timeout' as const } },
      { url: `${API}/malformed`, response: { error: 'malformed' as const, body: { items: [1, 2, 3], next: 'page-2' } } },
    ],
  },
};

const causeCode = (error: unknown) => ((error as Error).cause as { code?: string } | undefined)?.code;

test("'reset' and 'network' fail the call with ECONNRESET and ECONNREFUSED in every client", async () => {
  const { asTest } = await startHarness(scenarios);
  await asTest(undefined, async () => {
    for (const [path, code] of [['reset', 'ECONNRESET'], ['refused', 'ECONNREFUSED']] as const) {
      for (const get of [fetch, capturedFetch]) {
        const error = await get(`${API}/${path}`).then(() => undefined, (e: unknown) => e);
        expect([error instanceof TypeError, causeCode(error)]).toEqual([true, code]);
      }
      await expect(request(`${API}/${path}`)).rejects.toMatchObject({ code });
      await expect(axios.get(`${API}/${path}`)).rejects.toMatchObject({ code });
    }
  });
});

test("'timeout' answers nothing: the call hangs until the client's own timeout or abort ends it", async () => {
  const { asTest } = await startHarness(scenarios);
  await asTest(undefined, async () => {
    for (const get of [fetch, capturedFetch]) {
      const controller = new AbortController();
      const pending = get(`${API}/hang`, { signal: controller.signal });
      controller.abort(new Error('gave up'));
      await expect(pending).rejects.toThrow(/gave up|aborted/);
    }
    const controller = new AbortController();
    const viaUndici = request(`${API}/hang`, { signal: controller.signal });
    controller.abort();
    await expect(viaUndici).rejects.toMatchObject({ name: 'AbortError' });
    // axios over node:http with its own timeout: the request is destroyed, the harness lets go.
    await expect(axios.get(`${API}/hang`, { timeout: 50 })).rejects.toMatchObject({ code: 'ECONNABORTED' });
  });
});

test("'malformed' sends the status and headers, then half of the body, then drops the connection", async () => {
  const { asTest } = await startHarness(scenarios);
  await asTest(undefined, async () => {
    for (const get of [fetch, capturedFetch]) {
      const response = await get(`${API}/malformed`);
      expect([response.status, response.headers.get('content-type')]).toEqual([200, 'application/json']);
      await expect(response.text()).rejects.toThrow();
    }
    const viaUndici = await request(`${API}/malformed`);
    expect(viaUndici.statusCode).toBe(200);
    await expect(viaUndici.body.text()).rejects.toThrow(/cut off/);
    await expect(axios.get(`${API}/malformed`)).rejects.toThrow();
  });
});

test('an unknown fault is refused at creation with the allowed ones', async () => {
  const { createHarness } = await import('scenario-harness');
  expect(() => createHarness({ enabled: true, scenarios: { default: { name: 'D', mocks: [{ url: '/x', response: { error: 'slow' as never } }] } } })).toThrow(
    /response\.error.*'network', 'reset', 'timeout', 'malformed'/,
  );
});
