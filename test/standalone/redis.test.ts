import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { createHarness, loadScenarios, type Harness } from 'scenario-harness';
import { createRedisStore } from 'scenario-harness/redis';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { connectClient, type ConnectedClient } from '../redis/clients.js';
import { hasRedisServer, startRedisServer, type RedisServer } from '../redis/redis-server.js';
import { startServe, type ServeProcess } from './serve-process.js';

const SHOP = fileURLToPath(new URL('./fixtures/shop.yaml', import.meta.url));
const HEADER = 'x-harness-test-id';

if (!hasRedisServer()) {
  test.skip('serve --redis sharing sessions with an embedded harness needs redis-server (sudo apt-get install -y redis-server)', () => {});
} else {
  let redis: RedisServer;
  let client: ConnectedClient;
  let serve: ServeProcess;
  let embedded: Harness;

  beforeAll(async () => {
    redis = await startRedisServer();
    serve = await startServe(['--redis', redis.url, '--unhandled', 'error', SHOP]);
    // An embedded harness, as an app under test would have it: the same files, the same Redis, the default prefix.
    client = await connectClient('node-redis', redis.url);
    embedded = createHarness({ enabled: true, scenarios: await loadScenarios(SHOP), store: createRedisStore({ client: client.client }), unhandled: 'error' });
    await embedded.start();
  });

  afterAll(async () => {
    await embedded?.stop();
    await serve?.stop();
    await client?.close();
    await redis?.stop();
  });

  test('the start-up line and the health check name the Redis store', async () => {
    expect(serve.output()).toContain(`(unhandled: error, store: redis at ${redis.url} (redis))`);
    expect(await (await fetch(`${serve.url}/__harness__/health`)).json()).toMatchObject({ status: 'ok', store: 'redis' });
  });

  test('one session per test ID across the standalone server and an embedded harness: switch, sequence and state', async () => {
    const testId = randomUUID();
    const headers = { [HEADER]: testId, 'content-type': 'application/json' };
    // Switched through the standalone server...
    await fetch(`${serve.url}/__scenario__`, { method: 'POST', headers, body: '{"scenario":"premium"}' });
    expect(await embedded.getActiveScenario(testId)).toEqual({ scenarioId: 'premium' });
    // ...one sequence, advanced by both...
    const viaServer = async () => (await fetch(`${serve.url}/https/api.shop.example/orders/o-9`, { headers })).json();
    const viaApp = () => embedded.run(testId, async () => (await fetch('https://api.shop.example/orders/o-9')).json());
    expect(await viaServer()).toEqual({ id: 'o-9', status: 'processing' });
    expect(await viaApp()).toEqual({ id: 'o-9', status: 'shipped' });
    expect(await viaServer()).toEqual({ id: 'o-9', status: 'delivered' });
    // ...one state, read from either side.
    expect(await embedded.getState(testId)).toEqual({ polls: ['o-9', 'o-9', 'o-9'] });
    await embedded.switchScenario(testId, 'declined');
    expect(await (await fetch(`${serve.url}/__scenario__`, { headers })).json()).toEqual({ testId, scenarioId: 'declined', scenarioName: 'Declined' });
    expect((await fetch(`${serve.url}/https/api.stripe.com/v1/charges`, { method: 'POST', headers })).status).toBe(402);
    await fetch(`${serve.url}/__scenario__`, { method: 'DELETE', headers });
    expect(await embedded.getActiveScenario(testId)).toBeUndefined();
  });

  test('when Redis goes down, the health check answers 503 with the reason', async () => {
    // This process's own calls to the server would otherwise go through the embedded harness, which needs Redis too.
    await embedded.stop();
    await redis.stop();
    try {
      const response = await fetch(`${serve.url}/__harness__/health`);
      expect(response.status).toBe(503);
      const body = (await response.json()) as { status: string; error: string };
      expect(body.status).toBe('unavailable');
      expect(body.error).not.toBe('');
      // A call is never sent to the real upstream because the store failed (--unhandled error).
      const call = await fetch(`${serve.url}/https/api.shop.example/me`, { headers: { [HEADER]: 't-down' } });
      expect(call.status).toBe(503);
      expect(((await call.json()) as { error: string }).error).toBe('Failed to answer GET https://api.shop.example/me for test "t-down": the session store failed. Check the store (--redis) and try again.');
      expect((await fetch(`${serve.url}/__scenario__`, { headers: { [HEADER]: 't-down' } })).status).toBe(503);
    } finally {
      await redis.start();
    }
  });
}
