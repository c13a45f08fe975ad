/**
 * A held stream across replicas (issue 40, item 3): two processes of the app share one Redis
 * store; the stream is held in the one that answered the call, and the test lists it, waits for
 * it and releases it through the other.
 */
import { randomUUID } from 'node:crypto';
import { createHarnessClient } from 'scenario-harness/client';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startApp, stopApp, type AppProcess } from './app-process.js';
import { hasRedisServer, startRedisServer, type RedisServer } from './redis-server.js';

if (!hasRedisServer()) {
  test.skip('held streams across replicas need redis-server (sudo apt-get install -y redis-server)', () => {});
} else {
  let redis: RedisServer;
  let apps: AppProcess[] = [];

  beforeAll(async () => {
    redis = await startRedisServer();
    apps = await Promise.all(['node-redis', 'ioredis'].map((client) => startApp({ REDIS_URL: redis.url, REDIS_CLIENT: client, PREFIX: 'held:' })));
  });
  afterAll(async () => {
    await Promise.all(apps.map(stopApp));
    await redis?.stop();
  });

  test('a stream held in one replica is listed, waited for and released through the other', async () => {
    const [holder, other] = apps.map((app) => app.origin) as [string, string];
    const testId = randomUUID();
    const viaOther = createHarnessClient({ baseURL: other, testId, logger: { warn: () => {} } });
    await viaOther.switchScenario('held');
    const reader = (await fetch(`${holder}/feed`, { headers: viaOther.headers })).body!.pipeThrough(new TextDecoderStream()).getReader();
    const held = await viaOther.waitForStream('feed', { state: 'held' });
    expect(held).toMatchObject({ id: 'feed', state: 'held', delivered: 2, total: 3, url: 'https://api.shop.test/feed' });
    expect(await viaOther.streams()).toEqual([expect.objectContaining({ id: 'feed', state: 'held' })]);
    let text = '';
    while (!text.includes('data: two')) text += (await reader.read()).value ?? '';
    expect(text).toBe('data: one\n\ndata: two\n\n');
    // Answered once the holding replica obeyed: by then it may have sent the last event too.
    const released = await viaOther.releaseStream('feed');
    expect(['streaming', 'complete']).toContain(released.state);
    for (let read = await reader.read(); !read.done; read = await reader.read()) text += read.value;
    expect(text).toMatch(/^data: one\n\ndata: two\n\ndata: three\n\n\[end \d+\]$/);
    expect(await viaOther.waitForStream('feed', { state: 'complete' })).toMatchObject({ delivered: 3 });
  });

  test('another test on the same URL in the other replica is held apart, and an abort through a replica fails only its own', async () => {
    const [first, second] = apps.map((app) => app.origin) as [string, string];
    const a = createHarnessClient({ baseURL: second, testId: randomUUID(), logger: { warn: () => {} } });
    const b = createHarnessClient({ baseURL: first, testId: randomUUID(), logger: { warn: () => {} } });
    await Promise.all([a.switchScenario('held'), b.switchScenario('held')]);
    const readA = fetch(`${first}/feed`, { headers: a.headers }).then((response) => response.text());
    // Settled either way from the start: its failure is what the abort should bring.
    const readB = fetch(`${second}/feed`, { headers: b.headers }).then((response) => response.text()).then(
      (text) => ({ failed: false, text }),
      (error: unknown) => ({ failed: true, text: String(error) }),
    );
    await Promise.all([a.waitForStream('feed', { state: 'held' }), b.waitForStream('feed', { state: 'held' })]);
    await a.releaseStream('feed');
    expect(await readA).toMatch(/data: three\n\n\[end \d+\]$/);
    expect(await b.streams()).toEqual([expect.objectContaining({ state: 'held', delivered: 2 })]);
    await b.abortStream('feed');
    expect(await readB).toMatchObject({ failed: true });
    expect(await b.waitForStream('feed', { state: 'aborted' })).toMatchObject({ delivered: 2 });
  });
}
