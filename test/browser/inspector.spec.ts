import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { createHarnessClient } from 'scenario-harness/client';
import { test, expect } from './fixtures.js';

// The inspector page in Debian's chromium, opened the way a person opens it: a browser context
// of its own, with no test ID. The test's own requests (`request`) run as the test's ID.

/** Page errors and content-security-policy refusals: the page must have none. */
function watchProblems(page: Page, origin: string): string[] {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && !/status of 404/.test(message.text())) problems.push(`console: ${message.text()}`);
  });
  page.on('request', (request) => {
    if (new URL(request.url()).origin !== new URL(origin).origin) problems.push(`request elsewhere: ${request.url()}`);
  });
  return problems;
}

test('the inspector shows a call the app made, updates live when it makes another, and switches the test\'s scenario', async ({ browser, baseURL, harness, request }, testInfo) => {
  await harness.switchScenario('paymentDeclined');
  await request.post('/checkout', { form: { amount: '2500' } });
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 800 } });
  const inspector = await context.newPage();
  const problems = watchProblems(inspector, baseURL!);
  await inspector.goto('/__harness__/');

  await inspector.getByLabel('Search test IDs').fill(harness.testId);
  const row = inspector.locator(`#sessions button[data-test-id="${harness.testId}"]`);
  await expect(row).toContainText('paymentDeclined');
  await expect(row).toContainText('1 call');
  await row.click();
  await expect(inspector.locator('#selected-test')).toHaveText(harness.testId);
  const calls = inspector.locator('#journal tr.call');
  await expect(calls).toHaveCount(1);
  await expect(calls.first()).toContainText('https://payments.example.test/v1/charges');
  await expect(calls.first()).toContainText('402 by paymentDeclined#0 · scenario');

  // Live: the app calls again, the page shows it without a reload.
  await request.get('/api/me');
  await expect(calls).toHaveCount(2);
  await expect(calls.nth(1)).toContainText('GEThttps://users.example.test/me200 by default#0 · default');
  await expect(row).toContainText('2 calls');
  await calls.first().click();
  await expect(inspector.locator('tr.details')).toContainText('"amount": 2500');

  // Switch from the page; the app answers the test from the new scenario.
  await inspector.getByLabel('Scenario', { exact: true }).selectOption('premium');
  await inspector.getByLabel('Variant', { exact: true }).selectOption('gold');
  await inspector.getByRole('button', { name: 'Switch' }).click();
  await expect(inspector.locator('#switch-message')).toHaveText(`Switched ${harness.testId} to premium (variant gold). Its state and sequences start over.`);
  await expect(inspector.locator('#active-scenario')).toHaveText('premium · gold');
  expect(await harness.getActiveScenario()).toMatchObject({ scenarioId: 'premium', variant: 'gold' });
  expect(await (await request.get('/api/me')).json()).toMatchObject({ tier: 'gold' });
  await expect(calls).toHaveCount(3);
  await expect(calls.nth(2)).toContainText('200 by premium~gold#0 · variant');
  await inspector.screenshot({ path: testInfo.outputPath('inspector.png') });

  await inspector.getByRole('tab', { name: 'Scenarios' }).click();
  const declined = inspector.locator('[data-scenario="paymentDeclined"]');
  await expect(declined).toContainText('paymentDeclined#1');
  await expect(declined).toContainText('{"body":{"amount":{"regex":{"source":"^\\\\d{5,}$"}}}}');
  await expect(inspector.locator('[data-scenario="premium"]')).toContainText('premium~gold#0');
  expect(problems).toEqual([]);
  await context.close();
});

test('with 5,000 live test IDs the first load lists the newest 50 at once, and search finds any one', async ({ browser, baseURL }, testInfo) => {
  test.setTimeout(120_000);
  const tag = `load-${randomUUID().slice(0, 8)}`;
  const ids = Array.from({ length: 5000 }, (_, n) => `${tag}-${n}`);
  // Through the client: 100 switches at a time over kept-alive connections can meet one the
  // server just closed as idle, which the client retries (a raw fetch failed with "other side closed").
  const control = (testId: string, method: 'POST' | 'DELETE') => {
    const client = createHarnessClient({ baseURL: baseURL!, testId });
    return method === 'POST' ? client.switchScenario('premium') : client.endTest();
  };
  for (let start = 0; start < ids.length; start += 100) await Promise.all(ids.slice(start, start + 100).map((id) => control(id, 'POST')));
  try {
    const endpointStarted = performance.now();
    const page = (await (await fetch(new URL('/__harness__/sessions', baseURL))).json()) as { sessions: unknown[]; total: number };
    const endpointMs = performance.now() - endpointStarted;
    expect(page.sessions).toHaveLength(50);
    expect(page.total).toBeGreaterThanOrEqual(5000);

    const context = await browser.newContext({ baseURL });
    const inspector = await context.newPage();
    const problems = watchProblems(inspector, baseURL!);
    // What the page asked the sessions endpoint for: one page of 50 each time, however many are live.
    const pagesLoaded: Promise<number | undefined>[] = [];
    // The page keeps polling: a response that comes as the test ends cannot be read any more (the
    // context closes), which is no page size to judge; every one read before is judged below.
    const onSessions = (response: import('@playwright/test').Response) => {
      if (new URL(response.url()).pathname === '/__harness__/sessions') pagesLoaded.push(response.json().then((body: { sessions: unknown[] }) => body.sessions.length, () => undefined));
    };
    inspector.on('response', onSessions);
    const started = performance.now();
    await inspector.goto('/__harness__/');
    await expect(inspector.locator('#sessions-count')).toHaveText(/^[\d,]+ test IDs live, newest 50 shown$/);
    await expect(inspector.locator('#sessions li')).toHaveCount(51);
    const firstLoadMs = performance.now() - started;
    await inspector.getByLabel('Search test IDs').fill(`${tag}-4321`);
    await expect(inspector.locator('#sessions-count')).toHaveText(`1 test ID matching “${tag}-4321”`);
    await expect(inspector.locator('#sessions button[data-test-id]')).toHaveCount(1);
    await expect(inspector.locator(`#sessions button[data-test-id="${tag}-4321"]`)).toContainText('premium');
    // Timings are for the report only: speed is measured in the benchmarks, not asserted here.
    await testInfo.attach('timings', { body: JSON.stringify({ endpointMs, firstLoadMs }), contentType: 'application/json' });
    inspector.off('response', onSessions);
    const sizes = (await Promise.all(pagesLoaded)).filter((size) => size !== undefined);
    expect(sizes.length).toBeGreaterThan(0);
    expect(sizes.every((size) => size <= 50), `page sizes ${sizes.join(', ')}`).toBe(true);
    expect(problems).toEqual([]);
    await context.close();
  } finally {
    for (let start = 0; start < ids.length; start += 100) await Promise.all(ids.slice(start, start + 100).map((id) => control(id, 'DELETE')));
  }
});
