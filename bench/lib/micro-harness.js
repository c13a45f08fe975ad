// The harness both micro-benchmarks time (bench/micro.js on Node, bench/runtime-micro.js on Bun
// and Deno): one scenario with one mock for the micro URL, one test switched to it, every call
// made inside harness.run. The caller passes the package it loaded (the run's build snapshot on
// Node, the package name on the other runtimes).
export const MICRO_URL = 'https://api.bench.test/micro/ping';
/** The same call over plain http: the node:http subjects time both (a mocked https call still makes a TLS socket on the socket-level interceptors). */
export const MICRO_HTTP_URL = 'http://api.bench.test/micro/ping';
export const MICRO_BODY = { ok: true };
const TEST_ID = 'micro-test';

/**
 * @param {{ createHarness: Function, defineScenarios: Function }} pkg
 * @param {'bypass' | 'error'} unhandled
 */
export async function startMicroHarness({ createHarness, defineScenarios }, unhandled) {
  const harness = createHarness({
    enabled: true,
    scenarios: defineScenarios({
      default: { name: 'Default', mocks: [] },
      micro: {
        name: 'Micro',
        mocks: [
          { method: 'GET', url: MICRO_URL, response: { status: 200, body: MICRO_BODY } },
          { method: 'GET', url: MICRO_HTTP_URL, response: { status: 200, body: MICRO_BODY } },
        ],
      },
    }),
    unhandled,
  });
  await harness.start();
  await harness.switchScenario(TEST_ID, 'micro');
  return { wrap: (fn) => harness.run(TEST_ID, fn), stop: () => harness.stop() };
}
