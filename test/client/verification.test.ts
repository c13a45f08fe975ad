/**
 * Verifying the app's calls with scenario-harness/client, over real HTTP: an Express app whose
 * Stripe SDK (form-encoded bodies through node:https) is answered by the harness, and the
 * client's calls(), waitForCall() and expectCalled() reading the journal endpoint.
 */
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createHarness, defineScenarios, isHarnessError } from 'scenario-harness';
import { createHarnessClient } from 'scenario-harness/client';
import { harnessMiddleware } from 'scenario-harness/express';
import { expect, test } from 'vitest';
import { stripeRoutes } from '../clients/stripe-app.js';
import { useClientApp } from '../clients/use-client-app.js';

const API = 'https://api.stripe.com/v1';
const scenarios = defineScenarios({
  default: {
    name: 'Payments work',
    mocks: [
      {
        id: 'charge-5000',
        method: 'POST',
        url: `${API}/charges`,
        match: { body: { amount: 5000, currency: 'usd' } },
        response: { body: { id: 'ch_{{body.metadata.order_id}}', object: 'charge', amount: 5000, currency: 'usd', status: 'succeeded' } },
      },
    ],
  },
});

const app = useClientApp({ scenarios, routes: stripeRoutes });
const client = () => createHarnessClient<typeof scenarios>({ baseURL: app().origin });
const pay = (testId: string, order: string, amount: number) => app().call(testId, `/orders/${order}/pay`, { body: { amount } });

test('calls, expectCalled and waitForCall see this test\'s calls only; a number in a body filter matches the form field\'s text, as a mock does', async () => {
  const [mine, theirs] = [client(), client()];
  expect((await pay(mine.testId, '7', 5000)).body).toEqual({ id: 'ch_7', amount: 5000, status: 'succeeded' });
  await pay(theirs.testId, '8', 5000);

  const calls = await mine.calls();
  expect(calls).toHaveLength(1);
  expect(calls[0]).toMatchObject({ method: 'POST', url: `${API}/charges`, answered: true, mockId: 'charge-5000', requestBody: { amount: '5000', metadata: { order_id: '7' } } });
  expect(await mine.calls({ method: 'post', url: '*/v1/charges', body: { amount: 5000, metadata: { order_id: { regex: { source: '^\\d+$' } } } } })).toEqual(calls);
  expect(await mine.calls({ body: { amount: 4000 } })).toEqual([]);

  expect(await mine.expectCalled({ method: 'POST', url: '*/v1/charges', body: { amount: 5000 } }, { times: 1 })).toEqual(calls);
  expect(await mine.expectCalled({ mockId: 'charge-5000' })).toEqual(calls);
  expect(await mine.expectCalled({ url: '*/v1/refunds' }, { times: 0 })).toEqual([]);
  expect(await mine.waitForCall({ method: 'POST', url: '*/v1/charges' })).toEqual(calls[0]);
  expect(await theirs.expectCalled({ body: { metadata: { order_id: '8' } } }, { times: 1 })).toHaveLength(1);
});

test('expectCalled fails with the closest calls, each with the first criterion it fails in the engine\'s wording, and why no mock answered an unanswered one', async () => {
  const harness = client();
  await pay(harness.testId, '7', 5000);
  expect((await pay(harness.testId, '9', 4000)).status).toBe(502);
  const failure = await harness.expectCalled({ method: 'POST', url: '*/v1/charges', body: { amount: 2500 } }).then(() => undefined, (error: unknown) => error as Error);
  const unanswered = `POST ${API}/charges (default#0, id "charge-5000"): match.body.amount: expected 5000, received "4000"`;
  expect(failure?.message).toBe(
    [
      `Expected test "${harness.testId}" to call POST */v1/charges with body {"amount":2500} at least once, but it made no such call.`,
      'Closest calls, and why each does not match:',
      `  POST ${API}/charges → 200 by default#0 "charge-5000"`,
      '      body.amount: expected 2500, received "5000"',
      `  POST ${API}/charges → unanswered (failed)`,
      '      body.amount: expected 2500, received "4000"',
      '      no mock answered it:',
      `        ${unanswered}`,
      'The test\'s calls (2, oldest first):',
      `  POST ${API}/charges → 200 by default#0 "charge-5000"`,
      `  POST ${API}/charges → unanswered (failed): ${unanswered}`,
    ].join('\n'),
  );
  // The journal's own near miss is the engine's text, word for word.
  expect((await harness.calls({ unanswered: true }))[0]?.nearMisses).toEqual([unanswered]);

  const tooMany = await harness.expectCalled({ method: 'POST', url: '*/v1/charges' }, { times: 1 }).catch((error: Error) => error.message);
  expect(tooMany).toBe(
    [
      `Expected test "${harness.testId}" to call POST */v1/charges exactly once, but it made 2 such calls:`,
      `  POST ${API}/charges → 200 by default#0 "charge-5000"`,
      `  POST ${API}/charges → unanswered (failed): ${unanswered}`,
    ].join('\n'),
  );
  const wrongMethod = await harness.expectCalled({ method: 'GET', url: '*/v1/charges' }).catch((error: Error) => error.message);
  expect(wrongMethod).toContain('Closest calls, and why each does not match:\n' + `  POST ${API}/charges → 200 by default#0 "charge-5000"\n      method: expected GET, received POST`);
  const wrongMock = await harness.expectCalled({ url: '*/v1/charges', mockId: 'charge-2500' }).catch((error: Error) => error.message);
  expect(wrongMock).toContain('      mockId: expected "charge-2500", received "charge-5000"');
  expect(wrongMock).toContain('      mockId: expected "charge-2500", received an unanswered call');
});

test('waitForCall resolves when the app makes the call, and on timeout shows the calls it saw', async () => {
  const harness = client();
  const waiting = harness.waitForCall({ method: 'POST', body: { metadata: { order_id: '12' } } }, { interval: 20 });
  await pay(harness.testId, '12', 5000);
  expect(await waiting).toMatchObject({ answered: true, requestBody: { amount: '5000', metadata: { order_id: '12' } } });

  expect((await app().call(harness.testId, '/refunds', { body: { charge: 'ch_12' } })).status).toBe(502);
  const timedOut = await harness.waitForCall({ url: '*/v1/payouts' }, { timeout: 150, interval: 20 }).catch((error: Error) => error.message);
  expect(timedOut).toMatch(new RegExp(`^Failed to wait for test "${harness.testId}" to call any method \\*/v1/payouts: no such call within 150 ms \\(\\d+ polls\\)\\.\\nThe test's calls \\(2, oldest first\\):\\n`));
  expect(timedOut).toContain(`  POST ${API}/refunds → unanswered (failed): no mock has this URL; the closest: POST ${API}/charges (default#0, id "charge-5000")`);
});

test('clearCalls empties the test\'s journal; the scenario stays', async () => {
  const harness = client();
  await harness.switchScenario('default');
  await pay(harness.testId, '7', 5000);
  await harness.clearCalls();
  expect(await harness.calls()).toEqual([]);
  expect(await harness.getActiveScenario()).toMatchObject({ scenarioId: 'default' });
  const empty = await harness.expectCalled({ url: '*/v1/charges' }).catch((error: Error) => error.message);
  expect(empty).toBe(`Expected test "${harness.testId}" to call any method */v1/charges at least once, but it made no such call.\nThe test made no intercepted call: its journal is empty.`);
});

test('a mistaken filter or option is refused before any request, naming the fix', async () => {
  const harness = client();
  const refusal = (promise: Promise<unknown>) => promise.then(() => undefined, (error: unknown) => (isHarnessError(error) ? `${error.code}: ${error.message}` : String(error)));
  // @ts-expect-error -- "methd" is not a filter
  expect(await refusal(harness.expectCalled({ methd: 'POST' }))).toBe('INVALID_ARGUMENT: Invalid call filter for expectCalled(): "methd" is not a filter (did you mean "method"?); use method, url, unanswered, mockId, body.');
  expect(await refusal(harness.calls({ body: { id: { regex: { source: '(' } } } }))).toMatch(/^INVALID_ARGUMENT: Invalid call filter for calls\(\): the body pattern is not valid: body\.id\.regex is not a valid regular expression \(Invalid regular expression: /);
  expect(await refusal(harness.expectCalled({ url: '*' }, { times: -1 }))).toBe('INVALID_ARGUMENT: Invalid options for expectCalled(): expected "times" to be a whole number of 0 or more, instead got -1.');
  // @ts-expect-error -- timeout is a number
  expect(await refusal(harness.waitForCall({ url: '*' }, { timeout: '1s' }))).toBe('INVALID_ARGUMENT: Invalid options for waitForCall(): expected "timeout" to be a number of milliseconds of 0 or more, instead got "1s".');
  // @ts-expect-error -- a filter is an object
  expect(await refusal(harness.calls('POST'))).toBe('INVALID_ARGUMENT: Invalid call filter for calls(): expected an object such as { method: \'POST\', url: \'*/v1/charges\' }, instead got "POST".');
});

test('with the journal off, the client says so with the app\'s own words', async () => {
  const harness = createHarness({ enabled: true, announce: false, journal: false, scenarios });
  await harness.start();
  const server = express().use(harnessMiddleware(harness)).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    const off = createHarnessClient({ baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, testId: randomUUID() });
    await expect(off.calls()).rejects.toThrow(/^Failed to read the calls of test ".+": GET http:\/\/127\.0\.0\.1:\d+\/__harness__\/journal answered 404: The journal is off/);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await harness.stop();
  }
});

test('a 404 on the journal after the switch answered names the missing route, not a harness that is off (an App Router app without its /__harness__ route file)', async () => {
  const harness = createHarness({ enabled: true, announce: false, scenarios });
  await harness.start();
  // Only /__scenario__ reaches the harness, as in a Next.js app with that one route file.
  const server = express().use('/__scenario__', harnessMiddleware(harness)).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    const partial = createHarnessClient<typeof scenarios>({ baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, testId: randomUUID() });
    await partial.switchScenario('default');
    await expect(partial.calls()).rejects.toThrow(
      /^Failed to read the calls of test ".+": GET http:\/\/127\.0\.0\.1:\d+\/__harness__\/journal answered 404, while \/__scenario__ on the same app answered: the harness is on, but nothing in the app serves \/__harness__\/journal\. On Next\.js's App Router, every control path needs a route file: app\/%5F%5Fscenario%5F%5F\/route\.ts, and app\/%5F%5Fharness%5F%5F\/\[\[\.\.\.path\]\]\/route\.ts for every \/__harness__\/ path/,
    );
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await harness.stop();
  }
});
