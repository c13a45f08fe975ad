import { DEFAULT_ENDPOINTS } from '../core/constants.js';
import { didYouMean } from '../core/did-you-mean.js';
import type { Logger } from '../core/dev-utils.js';
import { HarnessError } from '../core/errors.js';
import type { HarnessEndpoints, ScenarioMap } from '../core/types.js';
import { HarnessClient, type ControlFetch } from './harness-client.js';
import { resolveToken } from './resolve-token.js';

export interface HarnessClientOptions {
  /** Origin of the app under test (`http://127.0.0.1:3000`); the endpoint paths are resolved against it. */
  baseURL: string;
  /** This test's ID, sent on every call. @default a random UUID */
  testId?: string;
  /**
   * Paths of the app's control endpoints, when it sets `createHarness({ endpoints })`.
   * @default DEFAULT_ENDPOINTS: { setScenario: '/__scenario__', getScenario: '/__scenario__', getState: '/__harness__/state', scenarios: '/__harness__/scenarios', journal: '/__harness__/journal', ... }
   */
  endpoints?: HarnessEndpoints;
  /**
   * What sends the control requests. Pass one to route them somewhere else than the network,
   * e.g. straight into an in-process harness: `(url, init) => harness.handle(new Request(url, init))…`.
   * @default globalThis.fetch
   */
  fetch?: ControlFetch;
  /** Where the app's warnings about a switch (an undeclared variant) are written. @default console, prefixed `[scenario-harness]` */
  logger?: Pick<Logger, 'warn'>;
  /**
   * The app's access token (`createHarness({ access: { token } })`), sent on every control call
   * as `Authorization: Bearer <token>`, never on the app's own requests (`client.headers`).
   * @default process.env.HARNESS_TOKEN, when set
   */
  token?: string;
}

function fail(message: string): never {
  throw new HarnessError('INVALID_OPTIONS', `Invalid createHarnessClient options: ${message}`);
}

function describe(value: unknown): string {
  return value === null ? 'null' : typeof value === 'string' ? JSON.stringify(value) : typeof value;
}

function checkOptions(options: HarnessClientOptions): void {
  if (typeof options !== 'object' || options === null) fail(`expected an object, instead got ${describe(options)}.`);
  const { baseURL, testId, endpoints, fetch } = options;
  if (typeof baseURL !== 'string' || !URL.canParse(baseURL) || !/^https?:$/.test(new URL(baseURL).protocol)) {
    fail(`expected "baseURL" to be the app's origin, such as "http://127.0.0.1:3000", instead got ${describe(baseURL)}.`);
  }
  if (testId !== undefined) {
    if (typeof testId !== 'string' || testId === '') fail(`expected "testId" to be a non-empty string, instead got ${describe(testId)}.`);
    try {
      new Headers({ 'x-harness-test-id': testId });
    } catch {
      fail(`"testId" ${JSON.stringify(testId)} cannot be sent as a header value; use letters, digits and dashes, such as a UUID.`);
    }
  }
  for (const [name, path] of Object.entries(endpoints ?? {})) {
    if (!Object.hasOwn(DEFAULT_ENDPOINTS, name)) {
      const near = didYouMean(name, Object.keys(DEFAULT_ENDPOINTS));
      fail(`"endpoints.${name}" is not an endpoint${near === undefined ? '' : ` (did you mean "${near}"?)`}; use ${Object.keys(DEFAULT_ENDPOINTS).join(', ')}.`);
    }
    if (path !== undefined && (typeof path !== 'string' || !path.startsWith('/'))) fail(`expected "endpoints.${name}" to be a path starting with "/", instead got ${describe(path)}.`);
  }
  if (fetch !== undefined && typeof fetch !== 'function') fail(`expected "fetch" to be a function, instead got ${describe(fetch)}.`);
}

/**
 * A client for the app's control endpoints, for tests in any runner (Vitest, Jest, node:test,
 * Playwright without the fixture): switch this test's scenario, read its state, wait for it,
 * end it. Give it `typeof scenarios` for compile-time scenario IDs and variants. Put
 * `client.headers` on the app's own requests so they run as this test.
 *
 * @example
 * import { createHarnessClient } from 'scenario-harness/client';
 * import type { scenarios } from '../src/scenarios';
 *
 * const client = createHarnessClient<typeof scenarios>({ baseURL: 'http://127.0.0.1:3000' });
 * await client.switchScenario('githubDown');
 * await fetch('http://127.0.0.1:3000/profile', { headers: client.headers });
 * await client.endTest();
 * @see https://github.com/scenario-harness/scenario-harness/blob/main/docs/client.md
 */
export function createHarnessClient<S extends ScenarioMap = ScenarioMap>(options: HarnessClientOptions): HarnessClient<S> {
  checkOptions(options);
  const { baseURL, testId = globalThis.crypto.randomUUID(), endpoints, logger } = options;
  const token = resolveToken(options.token, 'createHarnessClient({ token })');
  // Looked up at each call, as the test's own fetch calls are: whatever wraps globalThis.fetch sees these too.
  const send: ControlFetch = options.fetch ?? ((url, init) => globalThis.fetch(url, init));
  return new HarnessClient<S>({ baseURL, testId, endpoints, fetch: send, token, ...(logger === undefined ? {} : { logger }) });
}
