import { isHarnessError } from 'scenario-harness';
import { expect } from '@playwright/test';
import { test } from 'scenario-harness/playwright';

// The ready-made `test` takes any scenario ID, so a typo reaches the server and comes back as its error.

test('a failed switch throws with the server\'s error text, naming the test and the request', async ({ harness, baseURL }) => {
  const error: unknown = await harness.switchScenario('premum').catch((caught: unknown) => caught);
  expect(isHarnessError(error) && error.code).toBe('UNKNOWN_SCENARIO');
  expect((error as Error).message).toBe(
    `Failed to switch test "${harness.testId}" to scenario "premum": POST ${baseURL}/__scenario__ answered 400: Scenario 'premum' not found. Did you forget to register it? Did you mean "premium"? Registered scenarios: "default", "premium", "paymentDeclined", "slowNetwork", "usersDown", "orderPolling".`,
  );
  expect(await harness.getActiveScenario()).toBeUndefined();
});

test('a failed switch leaves the previous scenario active', async ({ page, harness }) => {
  await harness.switchScenario('premium');
  await expect(harness.switchScenario('')).rejects.toThrow(/answered 400: Invalid request body Details: \[/);
  await page.goto('/');
  await expect(page.getByTestId('tier')).toHaveText('premium');
});

test('getState shows what the mocks wrote, for debugging a flow', async ({ page, harness }) => {
  expect(await harness.getState()).toEqual({});
  await page.goto('/checkout');
  await page.getByTestId('pay').click();
  await expect(page.getByTestId('payment-result')).toBeVisible();
  expect(await harness.getState()).toMatchObject({ 'cart.lastAmount': 2500 });
});

test('waitForState times out with the last state it saw', async ({ page, harness }) => {
  await page.goto('/checkout');
  await page.getByTestId('pay').click();
  await expect(page.getByTestId('payment-result')).toBeVisible();
  const waiting = harness.waitForState((s) => s['cart.lastAmount'] === 1, { timeout: 400 });
  await expect(waiting).rejects.toThrow(
    `Failed to wait for the state of test "${harness.testId}": the predicate did not hold within 400 ms`,
  );
  await expect(waiting).rejects.toThrow(`Last state seen: {"cart.lastAmount":2500,"charges":[{"amount":2500,"currency":"eur"}]}.`);
});

test.describe('with harnessEndpoints set in use', () => {
  test.use({ harnessEndpoints: { getState: '/__not_the_state__' } });

  test('the harness calls the configured path, and a 404 there says what to check', async ({ harness }) => {
    expect(harness.endpoints).toEqual({
      setScenario: '/__scenario__',
      getScenario: '/__scenario__',
      getState: '/__not_the_state__',
      scenarios: '/__harness__/scenarios',
      journal: '/__harness__/journal',
      record: '/__harness__/record',
      inspector: '/__harness__/',
      sessions: '/__harness__/sessions',
      mocks: '/__harness__/mocks',
      answer: '/__harness__/answer',
      streams: '/__harness__/streams',
      sockets: '/__harness__/sockets',
    });
    await expect(harness.getState()).rejects.toThrow(/GET http:\/\/127\.0\.0\.1:\d+\/__not_the_state__ answered 404\. Check that the app runs with the harness enabled/);
  });
});
