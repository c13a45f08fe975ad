/**
 * A harness whose start() failed refuses like one never started, and says why: over real HTTP
 * through Express, a control request is 503 with the cause, an app request is refused.
 * Makes globalThis.fetch unpatchable, which cannot be undone: a file of its own (one process).
 * @see decisions/unstarted-harness.md
 */
import express from 'express';
import type { AddressInfo } from 'node:net';
import { createHarness, type Logger } from 'scenario-harness';
import { harnessMiddleware } from 'scenario-harness/express';
import { expect, test } from 'vitest';

test('after a failed start, control requests are 503 with the cause and app requests are refused', async () => {
  const logged: string[] = [];
  const logger: Logger = { warn: (m) => logged.push(m), error: (m) => logged.push(m) };
  const harness = createHarness({ enabled: true, scenarios: { default: { name: 'D', mocks: [] } }, logger });
  const app = express();
  app.use(harnessMiddleware(harness));
  app.get('/page', (_req, res) => void res.send('page'));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const appFetch = globalThis.fetch;
  try {
    Object.defineProperty(globalThis, 'fetch', { value: appFetch, writable: false, configurable: false });
    await expect(harness.start()).rejects.toThrow(/^Failed to start intercepting outgoing calls: globalThis\.fetch cannot be replaced/);

    const control = await appFetch(`${origin}/__scenario__`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"scenario":"default"}' });
    expect(control.status).toBe(503);
    const { error } = (await control.json()) as { error: string };
    expect(error).toMatch(
      /^Failed to answer POST \/__scenario__: the harness is enabled but harness\.start\(\) failed, so the app's outgoing calls would reach the real network\. Fix the cause and call harness\.start\(\) again\. The start failed with: Failed to start intercepting outgoing calls: globalThis\.fetch cannot be replaced/,
    );

    const page = await appFetch(`${origin}/page`);
    expect(page.status).toBe(500);
    expect(await page.text()).toContain('the harness is enabled but harness.start() failed');
    expect(logged.filter((line) => line.startsWith('Failed to run a request'))).toHaveLength(1);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});
