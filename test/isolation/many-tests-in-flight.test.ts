import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createHarness, defineScenarios } from 'scenario-harness';
import { harnessMiddleware } from 'scenario-harness/express';
import { afterAll, beforeAll, expect, test } from 'vitest';

const TESTS = 60;
const API = 'https://api.tenant.test';

// One scenario per test, each answering with its own tenant name and a 3-step sequence.
const scenarios = defineScenarios(
  Object.fromEntries(
    Array.from({ length: TESTS }, (_, i) => [
      `tenant-${i}`,
      {
        name: `Tenant ${i}`,
        mocks: [
          { url: `${API}/tenant`, response: { body: { tenant: i } }, afterResponse: { setState: { 'visits[]': i } } },
          { url: `${API}/step`, sequence: { responses: [{ body: { step: 1 } }, { body: { step: 2 } }, { body: { step: 3 } }] } },
        ],
      },
    ]),
  ),
);

// A gate server: each app request waits at its gate, so all of them are in flight at once.
const arrivals = new Map<string, () => void>();
const releases = new Map<string, Promise<void>>();
let gateServer: Server;
let appServer: Server;
let app: string;
let gates: string;
const harness = createHarness({ enabled: true, scenarios, unhandled: 'error' });

beforeAll(async () => {
  gateServer = createServer((req, res) => {
    const id = decodeURIComponent((req.url ?? '').slice(1));
    arrivals.get(id)?.();
    void releases.get(id)?.then(() => res.end('open'));
  });
  await new Promise<void>((resolve) => gateServer.listen(0, '127.0.0.1', resolve));
  gates = `http://127.0.0.1:${(gateServer.address() as AddressInfo).port}`;
  await harness.start();
  const application = express();
  application.use(harnessMiddleware(harness));
  application.get('/visit/:gate', async (req, res) => {
    const first = await (await fetch(`${API}/tenant`)).json();
    await fetch(`${gates}/${encodeURIComponent(req.params.gate)}`);
    const steps = [];
    for (let i = 0; i < 3; i++) steps.push(((await (await fetch(`${API}/step`)).json()) as { step: number }).step);
    const second = await (await fetch(`${API}/tenant`)).json();
    res.json({ first, second, steps });
  });
  appServer = application.listen(0, '127.0.0.1');
  await new Promise((resolve) => appServer.once('listening', resolve));
  app = `http://127.0.0.1:${(appServer.address() as AddressInfo).port}`;
});

afterAll(async () => {
  appServer.closeAllConnections();
  gateServer.closeAllConnections();
  await new Promise((resolve) => appServer.close(resolve));
  await new Promise((resolve) => gateServer.close(resolve));
  await harness.stop();
});

test(`${TESTS} test IDs in flight at once each see only their own scenario, sequence and state`, async () => {
  const testIds = Array.from({ length: TESTS }, () => randomUUID());
  await Promise.all(testIds.map((testId, i) => harness.switchScenario(testId, `tenant-${i}`)));

  const released = testIds.map((testId) => {
    const arrived = Promise.withResolvers<void>();
    const release = Promise.withResolvers<void>();
    arrivals.set(testId, () => arrived.resolve());
    releases.set(testId, release.promise);
    return { arrived: arrived.promise, release: release.resolve };
  });
  const responses = testIds.map((testId) => fetch(`${app}/visit/${testId}`, { headers: { 'x-harness-test-id': testId } }));
  // Every request is now held at its gate, all at once; release them in reverse order.
  await Promise.all(released.map((gate) => gate.arrived));
  for (const gate of [...released].reverse()) gate.release();

  const bodies = await Promise.all(responses.map(async (response) => (await response).json()));
  bodies.forEach((body, i) => expect(body).toEqual({ first: { tenant: i }, second: { tenant: i }, steps: [1, 2, 3] }));
  const states = await Promise.all(testIds.map((testId) => harness.getState(testId)));
  states.forEach((state, i) => expect(state).toEqual({ visits: [i, i] }));
});
