import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import express from 'express';
import { createHarness, defineScenarios } from 'scenario-harness';
import { harnessMiddleware } from 'scenario-harness/express';
import { createRedisStore } from 'scenario-harness/redis';
import { connectNodeRedis } from '../redis/clients.js';
import { hasRedisServer, startRedisServer } from '../redis/redis-server.js';

// The inspector over the Redis store, whose listing walks the keys (SCAN) and answers pages of
// about the size asked for, with a cursor: the page follows the cursor, and a search finds one
// test ID among many. An app of its own (Express, in this worker) on a redis-server of its own.

const scenarios = defineScenarios({
  default: { name: 'Default', mocks: [] },
  premium: { name: 'Premium', mocks: [], variants: { gold: { mocks: [] } } },
});

test('over the Redis store the inspector pages through test IDs and finds one by search', async ({ browser }) => {
  test.skip(!hasRedisServer(), 'needs redis-server (sudo apt-get install -y redis-server)');
  test.setTimeout(60_000);
  const redis = await startRedisServer();
  const client = await connectNodeRedis(redis.url);
  const harness = createHarness({ enabled: true, announce: false, scenarios, store: createRedisStore({ client }) });
  await harness.start();
  const server = express().use(harnessMiddleware(harness)).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    for (let start = 0; start < 1200; start += 200) {
      await Promise.all(Array.from({ length: 200 }, (_, i) => harness.switchScenario(`redis-${start + i}`, 'premium', (start + i) % 2 === 0 ? 'gold' : undefined)));
    }
    const context = await browser.newContext({ baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
    const page = await context.newPage();
    await page.goto('/__harness__/');
    const rows = page.locator('#sessions button[data-test-id]');
    await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(50);
    await expect(page.locator('#sessions-count')).toHaveText(/^\d+\+ test IDs live$/);
    await page.getByRole('button', { name: 'Show 50 more' }).click();
    await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(100);
    await page.getByLabel('Search test IDs').fill('REDIS-1042');
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText('premium · gold');
    await expect(page.locator('#sessions-count')).toHaveText('1 test ID matching “REDIS-1042”');
    await rows.first().click();
    await expect(page.locator('#active-scenario')).toHaveText('premium · gold');
    await context.close();
  } finally {
    server.close();
    await harness.stop();
    client.destroy();
    await redis.stop();
  }
});
