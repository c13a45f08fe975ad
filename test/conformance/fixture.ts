import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AccessOptions, HarnessControlOptions } from 'scenario-harness';

/** What `defineAdapterSuite` needs from a running fixture app. */
export interface RunningApp {
  /** Absolute URL of a path on the app. */
  url(path: string): string;
  close(): Promise<void>;
}

export interface FixtureOptions {
  /** Passed to the harness: false checks that everything passes through (SPEC §5). */
  enabled: boolean;
  /** Origin of the real upstream (test/conformance/upstream.ts). */
  upstream: string;
  /** Passed to the harness: the control endpoints then require the token. */
  access?: AccessOptions;
  /** Passed to the harness: which Host names and cross-site requests the control endpoints answer. */
  control?: HarnessControlOptions;
}

/**
 * Every fixture app has the same routes:
 * - `GET /greeting` calls `<upstream>/upstream/greeting` and answers `{ greeting }`.
 * - `GET /gated-greeting/:gate` calls `<upstream>/upstream/gate/:gate` first, then the greeting.
 * - `POST /body-then-greeting` parses a JSON body, then calls the greeting: `{ received, greeting }`.
 * - `GET /cookies` answers two `Set-Cookie` headers.
 * - `POST /app-echo?x=1` answers `{ method, query: x, body }` from the app's own parsed JSON body.
 * - the control endpoints at their default paths.
 */
export type StartFixture = (options: FixtureOptions) => Promise<RunningApp>;

/** The greeting an app route got from upstream. */
export async function fetchGreeting(upstream: string): Promise<string> {
  const response = await fetch(`${upstream}/upstream/greeting`);
  return ((await response.json()) as { greeting: string }).greeting;
}

/**
 * A fixture's server as the suite sees it, once it listens: its URLs, and a close() that ends
 * open connections, closes it and stops the harness.
 */
export async function runningApp(server: Server, harness: { stop(): Promise<void> }): Promise<RunningApp> {
  if (!server.listening) await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await harness.stop();
    },
  };
}
