import { expect } from '@playwright/test';
import { test } from 'scenario-harness/playwright';

// A test that fails without any outgoing call of the app's: its journal is empty.
test('the home page welcomes', async ({ request }) => {
  const page = await request.get('/');
  expect(await page.text()).toContain('Welcome');
});
