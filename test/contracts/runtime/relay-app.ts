/**
 * The app the runtime contract tests drive: an Express app with the harness whose one route
 * makes the outgoing call the test describes (method, URL, headers, body) with fetch and hands
 * back what the API answered, or the error the call failed with.
 */
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import type { Harness } from 'scenario-harness';
import { createHarnessClient, type HarnessClient } from 'scenario-harness/client';
import { harnessMiddleware } from 'scenario-harness/express';

/** The outgoing call a test asks the app to make. */
export interface Outgoing {
  method?: string;
  url: string;
  headers?: Record<string, string>;
  body?: string;
}

/** What the app's call got: the API's answer, or the failure. */
export type Relayed = { status: number; body: string } | { error: string };

export interface RelayApp {
  /** A client for a fresh test ID. */
  newTest(): HarnessClient;
  /** Have the app make `outgoing` as the client's test. */
  relay(client: HarnessClient, outgoing: Outgoing): Promise<Relayed>;
  close(): Promise<void>;
}

export async function startRelayApp(harness: Harness): Promise<RelayApp> {
  await harness.start();
  const app = express();
  app.use(harnessMiddleware(harness));
  app.post('/relay', express.json(), async (req, res) => {
    const { method = 'GET', url, headers, body } = req.body as Outgoing;
    try {
      const response = await fetch(url, { method, headers, body });
      res.json({ status: response.status, body: await response.text() });
    } catch (error) {
      // fetch wraps the harness's failure: the reason is its cause.
      const { message, cause } = error as Error & { cause?: Error };
      res.json({ error: cause?.message ?? message });
    }
  });
  const server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    newTest: () => createHarnessClient({ baseURL: origin, testId: randomUUID(), logger: { warn: () => {} } }),
    async relay(client, outgoing) {
      const response = await fetch(`${origin}/relay`, { method: 'POST', headers: { ...client.headers, 'content-type': 'application/json' }, body: JSON.stringify(outgoing) });
      return (await response.json()) as Relayed;
    },
    async close() {
      await new Promise((resolve) => server.close(resolve));
      await harness.stop();
    },
  };
}
