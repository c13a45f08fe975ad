import { expect, test } from './fixtures.js';

test.beforeEach(async ({ page }) => {
  await page.goto('/');
  await page.getByLabel('Message').fill('What is the capital of France?');
});

test('shows the answer as it streams, word by word', async ({ page, harness }) => {
  await harness.switchScenario('held');
  await page.getByRole('button', { name: 'Send' }).click();

  // The model has sent three words and waits: the page shows exactly those.
  await harness.waitForStream('chat', { state: 'held' });
  await expect(page.getByTestId('answer')).toHaveText('Paris is the');

  await harness.releaseStream('chat');
  await expect(page.getByTestId('answer')).toHaveText('Paris is the capital of France.');
});

test('shows the tool the model calls', async ({ page, harness }) => {
  await harness.switchScenario('weather');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByTestId('tool')).toHaveText('get_weather({"city":"Paris"})');
});

test('keeps the partial answer and says so when the stream breaks', async ({ page, harness }) => {
  await harness.switchScenario('brokenStream');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByRole('alert')).toHaveText('The answer broke off: The model is overloaded');
  await expect(page.getByTestId('answer')).toHaveText('Paris is the');
});

test('shows the whole answer at the model pace', async ({ page }) => {
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByTestId('answer')).toHaveText('Paris is the capital of France.');
});
