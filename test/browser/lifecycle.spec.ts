import { TEST_ID_HEADER } from 'scenario-harness';
import { test, expect } from './fixtures.js';

test.describe('test end', () => {
  // Serial: the second test looks at what the first one left behind, after its fixtures were torn down.
  test.describe.configure({ mode: 'serial' });
  let endedId = '';

  test('a test selects a scenario and writes state', async ({ page, harness }) => {
    endedId = harness.testId;
    await harness.switchScenario('premium', { variant: 'gold' });
    await page.goto('/checkout');
    await page.getByTestId('pay').click();
    await harness.waitForState((s) => s['cart.lastAmount'] === 2500);
  });

  test('after it ended, the app has forgotten its test ID', async ({ request }) => {
    expect(endedId).not.toBe('');
    const headers = { [TEST_ID_HEADER]: endedId };
    const scenario = await request.get('/__scenario__', { headers });
    expect(scenario.status()).toBe(404);
    expect(await scenario.json()).toEqual({ error: 'No active scenario for this test ID', testId: endedId });
    const state = await request.get('/__harness__/state', { headers });
    expect(await state.json()).toEqual({ testId: endedId, state: {} });
  });
});
