import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import express from 'express';
import { createHarness, defineScenarios } from 'scenario-harness';
import { harnessMiddleware } from 'scenario-harness/express';

// With access control on, the inspector's page loads without credentials, asks for the token
// once (a prompt), keeps it in the tab's sessionStorage, and sends it on every data request.

const TOKEN = 'inspector-token-0123456789';
const scenarios = defineScenarios({ default: { name: 'Default', mocks: [] }, premium: { name: 'Premium', mocks: [] } });

test('the inspector asks for the access token once, keeps it for the tab only, and then shows the live test IDs', async ({ browser }) => {
  const harness = createHarness({ enabled: true, announce: false, scenarios, access: { token: TOKEN } });
  await harness.start();
  await harness.switchScenario('guarded-1', 'premium');
  const server = express().use(harnessMiddleware(harness)).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const unauthorised = await fetch(`${baseURL}/__harness__/sessions`);
    expect(unauthorised.status).toBe(401);
    const context = await browser.newContext({ baseURL });
    const page = await context.newPage();
    const prompts: string[] = [];
    page.on('dialog', (dialog) => {
      prompts.push(dialog.message());
      void dialog.accept(TOKEN);
    });
    await page.goto('/__harness__/');
    await expect(page.locator('#sessions button[data-test-id="guarded-1"]')).toContainText('premium');
    expect(prompts).toHaveLength(1);
    expect(prompts[0]).toMatch(/access token/);
    expect(await page.evaluate(() => sessionStorage.getItem('scenario-harness.token'))).toBe(TOKEN);
    expect(await page.evaluate(() => localStorage.length)).toBe(0);
    // A reload in the same tab asks nothing more.
    await page.reload();
    await expect(page.locator('#sessions button[data-test-id="guarded-1"]')).toBeVisible();
    expect(prompts).toHaveLength(1);
    await context.close();
  } finally {
    server.close();
    await harness.stop();
  }
});
