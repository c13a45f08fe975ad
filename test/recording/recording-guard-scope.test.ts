/**
 * Issue 23, item 9: a recording in flight lifted the socket guard for the whole process, so
 * while one test recorded, another test's own undici `Client` (which no layer answers) reached
 * the network. Only the recorded call's own connection may pass now: with a recorded call held
 * at the upstream, the other test's POST is refused by the harness before any lookup, and the
 * tripwire under the guard counts nothing.
 */
import http from 'node:http';
import type { LookupFunction } from 'node:net';
import { randomUUID } from 'node:crypto';
import { createHarness } from 'scenario-harness';
import { Agent, Client, getGlobalDispatcher, setGlobalDispatcher } from 'undici';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { installTripwire } from '../interception/tripwire.js';
import { startUpstream } from '../interception/upstream.js';

// The recorded API: a name that is not loopback, which the test's agent resolves to the loopback upstream.
const UPSTREAM_HOST = 'api.upstream.test';
const tripwire = installTripwire({ letThrough: [UPSTREAM_HOST] });
/** A `lookup` that resolves every name to the loopback upstream, in both of Node's answer shapes. */
const toLoopback = ((_host: string, options: { all?: boolean }, callback: (error: null, ...answer: unknown[]) => void) =>
  options.all ? callback(null, [{ address: '127.0.0.1', family: 4 }]) : callback(null, '127.0.0.1', 4)) as unknown as LookupFunction;

/** The upstream holds each request until the test releases it: the recording stays in flight meanwhile. */
let held = Promise.withResolvers<() => void>();
let upstream: string;
const agent = new Agent({ connect: { lookup: toLoopback } });
const before = getGlobalDispatcher();
const harness = createHarness({ enabled: true, announce: false, unhandled: 'error', logger: { info() {}, warn() {}, error() {} }, scenarios: { default: { name: 'D', mocks: [] } } });

beforeAll(async () => {
  const started = await startUpstream((_req, res) => held.resolve(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{"recorded":true}')));
  upstream = `http://${UPSTREAM_HOST}:${new URL(started.origin).port}`;
  setGlobalDispatcher(agent);
  await harness.start();
});
afterAll(async () => {
  await harness.stop();
  setGlobalDispatcher(before);
  await agent.close();
  tripwire.remove();
});

async function startRecording(testId: string): Promise<void> {
  const response = await harness.handle(
    new Request('http://127.0.0.1/__harness__/record', { method: 'POST', headers: { 'x-harness-test-id': testId, 'content-type': 'application/json' }, body: '{"mode":"all"}' }),
  );
  expect(response?.status).toBe(200);
}

/** Another test's POST through an undici Client the app built itself: no layer sees it, only the socket guard. */
async function otherTestsOwnClientPost(): Promise<string> {
  const client = new Client('http://api.partner.example');
  try {
    await harness.run(randomUUID(), () => client.request({ method: 'POST', path: '/v1/charges', body: 'amount=5000' }));
    return 'sent';
  } catch (error) {
    return (error as Error).message;
  } finally {
    await client.destroy();
  }
}

const RECORDED_CALLS: Record<string, () => Promise<string>> = {
  fetch: async () => (await fetch(`${upstream}/v1/profile`)).text(),
  'node:http': () =>
    new Promise((resolve, reject) => {
      http
        .get(`${upstream}/v1/profile`, { lookup: toLoopback }, (response) => {
          let text = '';
          response.on('data', (chunk) => (text += chunk)).on('end', () => resolve(text));
        })
        .on('error', reject);
    }),
};

for (const [client, recordedCall] of Object.entries(RECORDED_CALLS)) {
  test(`while a ${client} call is recorded, another test's own undici Client POST is refused before any lookup`, async () => {
    held = Promise.withResolvers();
    const recorder = randomUUID();
    await startRecording(recorder);
    const recorded = harness.run(recorder, recordedCall);
    const release = await held.promise;

    const refusal = await otherTestsOwnClientPost();
    expect(tripwire.attempts).toEqual([]);
    expect(refusal).toContain('[scenario-harness] Blocked a connection to api.partner.example:80');

    release();
    // The recorded call's own connection went out and came back.
    expect(await recorded).toBe('{"recorded":true}');
  });
}
