/**
 * The catalogue's `?ready` form where the harness runs inside the app (an adapter, `handle()`):
 * the harness answering means the app does, so it is the catalogue itself; a path it could not
 * ask is refused everywhere alike.
 */
import { expect, test } from 'vitest';
import { createHarness } from '../../harness.js';
import { defineScenarios } from '../define-scenarios.js';

const harness = createHarness({ enabled: true, scenarios: defineScenarios({ default: { name: 'Default', mocks: [] } }), announce: false, intercept: false });
await harness.start();

const get = async (path: string) => {
  const response = (await harness.handle(new Request(`http://127.0.0.1${path}`)))!;
  return { status: response.status, text: await response.text() };
};

test('inside the app, the ready form is the catalogue: 200, the same body', async () => {
  const catalogue = await get('/__harness__/scenarios');
  expect(await get('/__harness__/scenarios?ready')).toEqual(catalogue);
  expect(await get('/__harness__/scenarios?ready=/health')).toEqual(catalogue);
});

test('a ready path that is no page is a 400 inside the app too', async () => {
  expect((await get('/__harness__/scenarios?ready=health')).status).toBe(400);
  expect((await get('/__harness__/scenarios?ready=/__harness__/journal')).status).toBe(400);
});
