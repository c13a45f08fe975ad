import { expect } from '@playwright/test';
import { test } from 'scenario-harness/playwright';

test('the harness fixture sends the token on its control calls, and the test\'s own requests carry none', async ({ harness, request }) => {
  if (test.info().project.name === 'wrong-option') {
    // The fixture's clean-up (endTest) is refused too; it only warns.
    await expect(harness.switchScenario('premium')).rejects.toThrow(/answered 401: Wrong credentials/);
    return;
  }
  await harness.switchScenario('premium');
  expect(await harness.getActiveScenario()).toMatchObject({ scenarioId: 'premium' });
  const echo = (await (await request.get('/echo')).json()) as { authorization: string | null; testId: string };
  expect(echo).toEqual({ authorization: null, testId: harness.testId });
});
