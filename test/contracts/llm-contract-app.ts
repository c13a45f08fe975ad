/**
 * An Express app whose routes call an LLM SDK, with the harness on and `contracts` set: each
 * test switches its own scenario over HTTP, calls the app, and reads the app's answer, the
 * harness's log lines and the test's journal.
 */
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createHarness, type ContractsOptions, type ScenarioMap } from 'scenario-harness';
import { createHarnessClient, type HarnessClient } from 'scenario-harness/client';
import { harnessMiddleware } from 'scenario-harness/express';

/** A route: what the app does with the SDK for one request. */
export type LlmRoute = () => Promise<unknown>;

export interface Posted {
  /** The app's answer: `ok: false` and the SDK's error with its causes, one message a line, when the call failed. */
  answer: { ok: boolean; result?: unknown; error?: string };
  client: HarnessClient;
}

/**
 * Start the harness, then the app (SDK clients made by `routes()` after the harness patched
 * fetch). `post(route, scenario)` runs one fresh test; `logged` has every warning the harness
 * wrote.
 */
export async function startLlmContractApp(scenarios: ScenarioMap, contracts: ContractsOptions, routes: () => Record<string, LlmRoute>) {
  const logged: string[] = [];
  const harness = createHarness({ enabled: true, scenarios, unhandled: 'error', announce: false, contracts, logger: { warn: (message) => logged.push(message), error: (message) => logged.push(message) } });
  await harness.start();
  const app = express();
  app.use(harnessMiddleware(harness));
  for (const [name, route] of Object.entries(routes())) {
    app.post(`/${name}`, async (_req, res) => {
      try {
        res.json({ ok: true, result: await route() });
      } catch (error) {
        // The SDK's error, then each cause under it: a failed fetch's names why it failed.
        const chain: string[] = [];
        for (let cause: unknown = error; cause !== undefined && chain.length < 5; cause = (cause as Error).cause) chain.push(String((cause as Error).message ?? cause));
        res.json({ ok: false, error: chain.join('\n') });
      }
    });
  }
  const server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  async function post(route: string, scenario: string): Promise<Posted> {
    const client = createHarnessClient({ baseURL: origin, testId: randomUUID(), logger: { warn: () => {} } });
    await client.switchScenario(scenario);
    const response = await fetch(`${origin}/${route}`, { method: 'POST', headers: client.headers });
    return { answer: (await response.json()) as Posted['answer'], client };
  }

  async function stop() {
    await new Promise((resolve) => server.close(resolve));
    await harness.stop();
  }
  return { post, stop, logged };
}
