import express, { type ErrorRequestHandler, type Express } from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHarness, TEST_ID_HEADER, type ContractsOptions, type ScenarioMap } from 'scenario-harness';
import { harnessMiddleware } from 'scenario-harness/express';
import { installTripwire } from '../interception/tripwire.js';
import { errorMessages } from './error-messages.js';
import { createGates, type Gates } from './gates.js';

export interface ClientAppOptions<S extends ScenarioMap> {
  scenarios: S;
  /** The app's own routes; they call the external API through the client under test. */
  routes(app: Express, gates: Gates): void;
  /** Contract checks for the harness (`createHarness({ contracts })`): the suite runs again with the API's document. */
  contracts?: ContractsOptions;
}

/** What a test sees of an app route's answer. */
export interface AppReply {
  status: number;
  body: unknown;
}

/**
 * The app under test for one client: the tripwire first (it counts any DNS lookup or TCP
 * connection to a non-loopback host), then a harness started with `unhandled: 'error'`, then an
 * Express app on 127.0.0.1:0 with `harnessMiddleware`. A route that throws answers
 * 502 `{ errors }`: the messages of the error's chain, as the app would log them.
 * The test talks to the app only over HTTP, carrying `x-harness-test-id`.
 */
export async function startClientApp<const S extends ScenarioMap>({ scenarios, routes, contracts }: ClientAppOptions<S>) {
  const tripwire = installTripwire();
  const logs: string[] = [];
  const harness = createHarness({
    enabled: true,
    unhandled: 'error',
    logger: { warn: (message) => logs.push(`warn: ${message}`), error: (message) => logs.push(`error: ${message}`) },
    scenarios,
    ...(contracts === undefined ? {} : { contracts }),
  });
  await harness.start();
  const gates = createGates();
  const app = express();
  app.use(harnessMiddleware(harness));
  app.use(express.json());
  routes(app, gates);
  const reportError: ErrorRequestHandler = (error, _req, res, _next) => void res.status(502).json({ errors: errorMessages(error) });
  app.use(reportError);
  const server: Server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  async function call(testId: string, path: string, init: { method?: string; body?: unknown } = {}): Promise<AppReply> {
    const response = await fetch(`${origin}${path}`, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers: { [TEST_ID_HEADER]: testId, ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    const text = await response.text();
    return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
  }

  return {
    /** The app's origin, `http://127.0.0.1:<port>`. */
    origin,
    gates,
    tripwire,
    logs,
    call,
    /** POST /__scenario__ for the test ID; throws unless the switch succeeded. */
    async switchScenario(testId: string, scenario: Extract<keyof S, string>, variant?: string): Promise<void> {
      const reply = await call(testId, '/__scenario__', { body: variant === undefined ? { scenario } : { scenario, variant } });
      if (reply.status !== 200) throw new Error(`switch to ${scenario} failed: ${JSON.stringify(reply)}`);
    },
    /** GET /__harness__/state for the test ID. */
    async state(testId: string): Promise<AppReply> {
      return call(testId, '/__harness__/state');
    },
    async close(): Promise<void> {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await harness.stop();
      tripwire.remove();
    },
  };
}

export type ClientApp<S extends ScenarioMap = ScenarioMap> = Awaited<ReturnType<typeof startClientApp<S>>>;
