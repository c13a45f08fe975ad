/**
 * An Express app whose routes call an LLM SDK, with the harness on: each test switches its own
 * scenario over HTTP and asserts what the app hands back, as an end-to-end test would.
 */
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createHarness, type ScenarioMap } from 'scenario-harness';
import { createHarnessClient } from 'scenario-harness/client';
import { harnessMiddleware } from 'scenario-harness/express';

/** A route: what the app does with the SDK for one request body. */
export type LlmRoute = (body: Record<string, unknown>) => Promise<unknown>;

/**
 * Start the harness, then the app (so SDK clients made by `routes()` see the patched fetch).
 * `post(route, scenario, body)` runs one fresh test: switch, call the app, return its JSON.
 */
export async function startLlmApp(scenarios: ScenarioMap, routes: () => Record<string, LlmRoute>) {
  const harness = createHarness({ enabled: true, scenarios, unhandled: 'error', announce: false });
  await harness.start();
  const app = express();
  app.use(harnessMiddleware(harness));
  app.use(express.json());
  for (const [name, route] of Object.entries(routes())) {
    app.post(`/${name}`, async (req, res) => {
      try {
        res.json({ ok: true, result: await route(req.body as Record<string, unknown>) });
      } catch (error) {
        res.status(500).json({ ok: false, error: String((error as Error).stack ?? error) });
      }
    });
  }
  const server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  async function post<T = unknown>(route: string, scenario: string, body: Record<string, unknown> = {}): Promise<T> {
    const client = createHarnessClient({ baseURL: origin, testId: randomUUID(), logger: { warn: () => {} } });
    await client.switchScenario(scenario);
    const response = await fetch(`${origin}/${route}`, { method: 'POST', headers: { ...client.headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const answer = (await response.json()) as { ok: boolean; result?: T; error?: string };
    if (!answer.ok) throw new Error(`The app failed: ${answer.error}`);
    return answer.result as T;
  }

  async function stop() {
    await new Promise((resolve) => server.close(resolve));
    await harness.stop();
  }
  return { origin, post, stop, harness };
}
