import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { ScenarioMap } from 'scenario-harness';
import { startClientApp, type ClientApp, type ClientAppOptions } from './client-app.js';

/**
 * Start the client's app before the file's (or describe block's) tests and close it after;
 * after every test, assert that nothing reached the network (the tripwire saw no DNS lookup
 * and no connection to a non-loopback host).
 * @returns a getter for the running app.
 */
export function useClientApp<const S extends ScenarioMap>(options: ClientAppOptions<S>): () => ClientApp<S> {
  let app: ClientApp<S> | undefined;
  beforeAll(async () => {
    app = await startClientApp(options);
  });
  afterAll(() => app?.close());
  afterEach(() => expect(app?.tripwire.attempts).toEqual([]));
  return () => {
    if (app === undefined) throw new Error('the client app did not start (see the beforeAll error)');
    return app;
  };
}
