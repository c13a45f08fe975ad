import { expect, test } from './fixtures.js';

test('shows the profile GitHub sends', async ({ page }) => {
  await page.goto('/profile/ada');
  await expect(page.getByText('"followers":10')).toBeVisible();
});

test('shows the error when GitHub is down', async ({ page, harness }) => {
  await harness.switchScenario('githubDown'); // only this test: the other one still sees GitHub up
  await page.goto('/profile/ada');
  await expect(page.getByText('unavailable')).toBeVisible();
});
