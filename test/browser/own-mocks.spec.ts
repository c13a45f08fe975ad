import { USERS_API } from '../../examples/shop/scenarios.js';
import { test, expect } from './fixtures.js';

// One answer for one test (issue 25): mocks and state a test gives itself through the fixture,
// seen by the page the app renders, while the other workers' tests (same app, same URLs) keep
// their scenarios. Four workers run these beside the rest of the suite.

const me = (body: { name: string; tier: string }) => ({ method: 'GET' as const, url: `${USERS_API}/me`, response: { body } });

test("harness.use() answers this test's call before its scenario; the page shows it", async ({ page, harness }) => {
  await harness.switchScenario('premium');
  await harness.use(me({ name: 'Only This Test', tier: 'bronze' }));
  await page.goto('/');
  await expect(page.getByTestId('user-name')).toHaveText('Only This Test');
  await expect(page.getByTestId('tier')).toHaveText('bronze');
  const [call] = await harness.calls({ url: `${USERS_API}/me` });
  expect(call).toMatchObject({ answered: true, layer: 'test', scenarioId: 'premium' });
});

test('a test without mocks of its own, beside it, keeps its scenario', async ({ page, harness }) => {
  await harness.switchScenario('premium');
  await page.goto('/');
  await expect(page.getByTestId('user-name')).toHaveText('Grace Hopper');
  expect(await harness.calls({ url: `${USERS_API}/me` })).toMatchObject([{ layer: 'scenario' }]);
});

test("seeded state reaches the page through a mock's template; a switch clears the state, not the mocks", async ({ page, harness }) => {
  await harness.use(me({ name: 'Seeded', tier: '{{state.tier}}' }));
  await harness.setState({ tier: 'platinum' });
  await page.goto('/');
  await expect(page.getByTestId('tier')).toHaveText('platinum');
  await harness.switchScenario('premium', { variant: 'gold' });
  await page.reload();
  await expect(page.getByTestId('user-name')).toHaveText('Seeded');
  // The seed is gone with the switch: the template finds no tier, and the body has none.
  expect(await harness.getState()).toEqual({});
  await expect(page.getByTestId('tier')).not.toHaveText('platinum');
});

test('resetMocks() hands the call back to the scenario; a later use() wins over an earlier one', async ({ page, harness }) => {
  await harness.use(me({ name: 'First', tier: 'one' }));
  await harness.use(me({ name: 'Second', tier: 'two' }));
  await page.goto('/');
  await expect(page.getByTestId('user-name')).toHaveText('Second');
  await harness.resetMocks();
  await page.reload();
  await expect(page.getByTestId('user-name')).toHaveText('Ada Lovelace');
});

test("the inspector shows the test's own mocks beside its scenario", async ({ browser, baseURL, harness }) => {
  await harness.switchScenario('premium');
  await harness.use(me({ name: 'Inspected', tier: 'x' }));
  const context = await browser.newContext({ baseURL });
  const inspector = await context.newPage();
  await inspector.goto(`/__harness__/#test=${encodeURIComponent(harness.testId)}`);
  const card = inspector.locator('#own-mocks');
  await expect(card).toContainText("This test's own mocks");
  await expect(card).toContainText('test#0');
  await expect(card).toContainText(`${USERS_API}/me`);
  await expect(inspector.locator('#active-scenario')).toHaveText('premium');
  await context.close();
});
