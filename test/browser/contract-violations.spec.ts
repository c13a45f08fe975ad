import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { createHarnessClient } from 'scenario-harness/client';
import { startServe, type ServeProcess } from '../standalone/serve-process.js';

// The inspector of a standalone server that checks calls against an API document (serve
// --openapi, issue 27), in Debian's chromium: a call that broke the document carries a
// "contract" chip and lists its violations in its details, as text, even when a violation quotes
// markup the service sent.

const PETSTORE_DOC = fileURLToPath(new URL('../import/fixtures/petstore-swagger2.json', import.meta.url));
const DRIFTED = fileURLToPath(new URL('../contracts/fixtures/petstore.drift.yaml', import.meta.url));
const MARKUP = '<img src=x onerror=window.__contractXss=1>';

let serve: ServeProcess;
test.beforeAll(async () => {
  serve = await startServe(['--openapi', PETSTORE_DOC, DRIFTED]);
});
test.afterAll(async () => {
  await serve?.stop();
});

test('the inspector marks a call that broke its API document and lists its violations, escaped', async ({ page }) => {
  const client = createHarnessClient({ baseURL: serve.url, testId: `contract-${randomUUID()}` });
  // A call that fits (a mock of the test's own), then one whose path parameter is markup and whose answer drifted.
  await client.use({ method: 'GET', url: 'https://petstore.swagger.io/v2/pet/7', response: { body: { id: 7, name: 'Rex', photoUrls: [] } } });
  expect((await fetch(`${serve.url}/https/petstore.swagger.io/v2/pet/7`, { headers: client.headers })).status).toBe(200);
  expect((await fetch(`${serve.url}/https/petstore.swagger.io/v2/pet/${encodeURIComponent(MARKUP)}`, { headers: client.headers })).status).toBe(200);
  const [, broken] = await client.calls();
  expect(broken?.contractViolations, JSON.stringify(broken)).toContainEqual(expect.stringContaining(MARKUP));

  await page.goto(`${serve.url}/__harness__/#test=${encodeURIComponent(client.testId)}`);
  const calls = page.locator('#journal tr.call');
  await expect(calls).toHaveCount(2);
  await expect(calls.nth(0).locator('.chip.contract')).toHaveCount(0);
  await expect(calls.nth(1).locator('.chip.contract')).toHaveText('contract');
  await expect(calls.nth(1).locator('.chip.contract')).toHaveAttribute('title', `${broken!.contractViolations!.length} contract violations: open the call for the list`);

  await calls.nth(0).click();
  await expect(page.locator('tr.details')).toContainText('fits its API document');
  await calls.nth(0).click();
  await calls.nth(1).click();
  const details = page.locator('tr.details');
  await expect(details).toContainText(`${broken!.contractViolations!.length} violations of its API document, listed below`);
  await expect(details.locator('ul.violations li')).toHaveText(broken!.contractViolations!);
  // The markup is shown as text: no element was made from it, no handler ran.
  await expect(page.locator('#detail img')).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { __contractXss?: number }).__contractXss)).toBeUndefined();
});
