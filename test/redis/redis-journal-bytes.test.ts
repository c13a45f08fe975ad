/**
 * The Redis store's journal keeps entries bounded by `journal.maxEntryBytes` as the memory store
 * does: the harness bounds each entry before any store sees it.
 * @see issue 23, item 3 ("Journal memory unbounded by bytes")
 */
import { randomUUID } from 'node:crypto';
import { createHarness, defineScenarios, type Harness } from 'scenario-harness';
import { createRedisStore } from 'scenario-harness/redis';
import { afterAll, expect, test } from 'vitest';
import { connectClient, type ConnectedClient } from './clients.js';
import { hasRedisServer, startRedisServer, type RedisServer } from './redis-server.js';

const API = 'https://api.bulk.test';
const scenarios = defineScenarios({ default: { name: 'Default', mocks: [{ method: 'POST', url: `${API}/bulk`, response: { status: 201 } }] } });
/** 8 KB of `[[],[],…]`: 109 KiB of arrays once parsed. */
const NESTED = `[${Array.from({ length: 2730 }, () => '[]').join(',')}]`;

if (!hasRedisServer()) {
  test.skip('the Redis journal test needs redis-server (sudo apt-get install -y redis-server)', () => {});
} else {
  let server: RedisServer | undefined;
  let connected: ConnectedClient | undefined;
  let harness: Harness | undefined;
  afterAll(async () => {
    await harness?.stop();
    await connected?.close();
    await server?.stop();
  });

  test('an entry whose parsed body is over maxEntryBytes is kept in Redis as its text, and a small one parsed', async () => {
    server = await startRedisServer();
    connected = await connectClient('node-redis', server.url);
    harness = createHarness({ enabled: true, scenarios, store: createRedisStore({ client: connected.client, prefix: 'bytes:' }), announce: false });
    await harness.start();
    const testId = randomUUID();
    await harness.run(testId, async () => {
      await fetch(`${API}/bulk`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: NESTED });
      await fetch(`${API}/bulk`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '[[],[]]' });
    });
    const [big, small] = await harness.getCalls(testId);
    expect(big).toMatchObject({ status: 201, requestBodyTruncated: true });
    expect(big!.requestBody === NESTED).toBe(true);
    expect(small).toMatchObject({ requestBody: [[], []] });
    expect(small!.requestBodyTruncated).toBeUndefined();
  });
}
