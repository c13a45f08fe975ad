/**
 * A push through another replica (issue 41, item 3): two processes of the app share one Redis
 * store; the socket is open in the one whose request opened it, and the test pushes a frame to it
 * and closes it through the other.
 */
import { randomUUID } from 'node:crypto';
import { createHarnessClient } from 'scenario-harness/client';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startApp, stopApp, type AppProcess } from './app-process.js';
import { hasRedisServer, startRedisServer, type RedisServer } from './redis-server.js';

if (!hasRedisServer()) {
  test.skip('socket pushes across replicas need redis-server (sudo apt-get install -y redis-server)', () => {});
} else {
  let redis: RedisServer;
  let apps: AppProcess[] = [];

  beforeAll(async () => {
    redis = await startRedisServer();
    apps = await Promise.all(['node-redis', 'ioredis'].map((client) => startApp({ REDIS_URL: redis.url, REDIS_CLIENT: client, PREFIX: 'sockets:' })));
  });
  afterAll(async () => {
    await Promise.all(apps.map(stopApp));
    await redis?.stop();
  });

  /** What the holder's ticker got, once `ready` says it got enough. */
  async function tickerOf(origin: string, name: string, ready: (ticker: { frames: string[]; closed?: number }) => boolean) {
    for (;;) {
      const ticker = (await (await fetch(`${origin}/ticker/${name}`)).json()) as { frames: string[]; closed?: number };
      if (ready(ticker)) return ticker;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  test('a socket open in one replica gets the pushes and the close sent through the other; another test\'s socket on the same URL gets none', async () => {
    const [holder, other] = apps.map((app) => app.origin) as [string, string];
    const mine = createHarnessClient({ baseURL: other, testId: randomUUID(), logger: { warn: () => {} } });
    const theirs = createHarnessClient({ baseURL: holder, testId: randomUUID(), logger: { warn: () => {} } });
    expect(await (await fetch(`${holder}/ticker/mine`, { method: 'POST', headers: mine.headers })).json()).toMatchObject({ opened: true });
    expect(await (await fetch(`${holder}/ticker/theirs`, { method: 'POST', headers: theirs.headers })).json()).toMatchObject({ opened: true });

    expect(await mine.sendToSocket('wss://ticker.shop.test/v1', { json: { price: 12 } })).toBe(1);
    expect((await tickerOf(holder, 'mine', (ticker) => ticker.frames.length === 2)).frames).toEqual(['hello', '{"price":12}']);
    expect(await mine.closeSocket('wss://ticker.shop.test/v1', 4001, 'done')).toBe(1);
    expect(await tickerOf(holder, 'mine', (ticker) => ticker.closed !== undefined)).toEqual({ frames: ['hello', '{"price":12}'], closed: 4001 });

    // The other test's socket on the same URL, in the same replica, got nothing of it.
    expect(await tickerOf(holder, 'theirs', () => true)).toEqual({ frames: ['hello'] });
    await mine.expectSent('wss://ticker.shop.test/v1', { text: 'never sent' }, { times: 0 });
  });
}
