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
  // With contracts on ('warn'), a violation is logged: a correct mock and a correct SDK request log none.
  // Each is taken out of the log once seen, so it fails the test that caused it, not the ones after.
  if (options.contracts !== undefined) {
    afterEach(() => {
      const logs = app?.logs ?? [];
      const violations = logs.filter((line) => line.includes('Contract violation'));
      logs.splice(0, logs.length, ...logs.filter((line) => !violations.includes(line)));
      expect(violations).toEqual([]);
    });
  }
  return () => {
    if (app === undefined) throw new Error('the client app did not start (see the beforeAll error)');
    return app;
  };
}
