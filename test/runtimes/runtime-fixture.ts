import type { RuntimeName } from '../../scripts/ensure-runtimes.mjs';
import type { FixtureOptions, StartFixture } from '../conformance/fixture.js';
import { startRuntimeApp } from './start-runtime-app.js';

/** The environment variable a conformance app (fixtures/conformance-*.js) reads its FixtureOptions from, as JSON. */
const FIXTURE_OPTIONS_ENV = 'SCENARIO_HARNESS_FIXTURE_OPTIONS';

/**
 * A `start` for defineAdapterSuite that runs the conformance app `app` (a file in fixtures/) on
 * Bun or Deno, as a child process: the suite sees only HTTP, so it cannot tell.
 */
export function runtimeFixture(runtime: RuntimeName, binary: string, app: string): StartFixture {
  return async (options: FixtureOptions) => {
    const running = await startRuntimeApp(runtime, binary, { app, env: { [FIXTURE_OPTIONS_ENV]: JSON.stringify(options) } });
    return { url: (path) => `${running.origin}${path}`, close: running.stop };
  };
}
