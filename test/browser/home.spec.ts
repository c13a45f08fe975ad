import { test, expect } from './fixtures.js';

// The home page calls the user API (https://users.example.test/me); each scenario answers it differently.

test('without a switch the default scenario answers: Ada, a standard member', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByTestId('user-name')).toHaveText('Ada Lovelace');
  await expect(page.getByTestId('tier')).toHaveText('standard');
});

test('the premium scenario shows Grace with a premium badge', async ({ page, harness }) => {
  await harness.switchScenario('premium');
  await page.goto('/');
  await expect(page.getByTestId('user-name')).toHaveText('Grace Hopper');
  await expect(page.getByTestId('tier')).toHaveText('premium');
});

test('the gold variant of the premium scenario shows the gold badge', async ({ page, harness }) => {
  await harness.switchScenario('premium', { variant: 'gold' });
  await page.goto('/');
  await expect(page.getByTestId('tier')).toHaveText('gold');
  await expect(page.getByTestId('tier')).toHaveClass(/\bgold\b/);
});

test('an unreachable user API shows the error message', async ({ page, harness }) => {
  await harness.switchScenario('usersDown');
  await page.goto('/');
  await expect(page.getByTestId('user-error')).toHaveText('The user service is unreachable. Try again later.');
});

test('a slow user API still renders once its delayed answer arrives', async ({ page, harness }) => {
  await harness.switchScenario('slowNetwork');
  const started = Date.now();
  await page.goto('/');
  await expect(page.getByTestId('user-name')).toHaveText('Ada Lovelace (slowly)');
  expect(Date.now() - started).toBeGreaterThanOrEqual(1400);
});

test('switching mid-test changes what the next page load gets, without restarting the app', async ({ page, harness }) => {
  await page.goto('/');
  await expect(page.getByTestId('tier')).toHaveText('standard');
  await harness.switchScenario('premium');
  await page.reload();
  await expect(page.getByTestId('tier')).toHaveText('premium');
  await harness.switchScenario('usersDown');
  await page.reload();
  await expect(page.getByTestId('user-error')).toBeVisible();
  await harness.switchScenario('default');
  await page.reload();
  await expect(page.getByTestId('tier')).toHaveText('standard');
});

test('the request fixture carries the test ID: /api/me answers from this test\'s scenario', async ({ request, harness }) => {
  await harness.switchScenario('premium', { variant: 'gold' });
  const response = await request.get('/api/me');
  expect(response.ok()).toBe(true);
  expect(await response.json()).toEqual({ name: 'Grace Hopper', tier: 'gold' });
});

test('getActiveScenario reports the scenario, its name and its variant', async ({ harness }) => {
  expect(await harness.getActiveScenario()).toBeUndefined();
  await harness.switchScenario('premium', { variant: 'gold' });
  expect(await harness.getActiveScenario()).toEqual({ scenarioId: 'premium', scenarioName: 'Premium user', variant: 'gold' });
  await harness.switchScenario('usersDown');
  expect(await harness.getActiveScenario()).toEqual({ scenarioId: 'usersDown', scenarioName: 'User API unreachable' });
});
