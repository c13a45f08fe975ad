import type { APIRequestContext } from '@playwright/test';
import { HarnessClient as ControlClient, type ControlFetch } from '../client/harness-client.js';
import type { HarnessEndpoints, ScenarioMap } from '../core/types.js';

export type { ActiveScenarioInfo, ExpectCalledOptions, ScenarioInfo, SwitchScenarioOptions, WaitForCallOptions, WaitForStateOptions, StreamState, StreamView, WaitForStreamOptions, ExpectSentOptions, WaitForFrameOptions } from '../client/harness-client.js';
export type { CallFilter } from '../client/compile-call-filter.js';
export type { JournalEntry } from '../core/journal/journal-entry.js';

export interface HarnessClientOptions {
  /** What sends the control requests: Playwright's `APIRequestContext` (anything with its `fetch`). */
  request: Pick<APIRequestContext, 'fetch'>;
  /** The test ID every control request carries in `x-harness-test-id` (and in `baggage`). */
  testId: string;
  /** Origin of the app under test; the endpoint paths are resolved against it. */
  baseURL: string | undefined;
  /** Paths of the app's control endpoints, when the app sets `createHarness({ endpoints })`; the defaults are `DEFAULT_ENDPOINTS`. */
  endpoints?: HarnessEndpoints;
  /** The app's access token, sent on control calls as `Authorization: Bearer <token>`. The fixture fills it from `use.harnessToken` or `HARNESS_TOKEN`. */
  token?: string;
}

/** Statuses whose Response must have no body. */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * The client's transport over Playwright's request context, so control calls take the test's
 * `baseURL`, proxy, `ignoreHTTPSErrors` and `httpCredentials` like its other requests.
 */
function playwrightFetch(request: Pick<APIRequestContext, 'fetch'>): ControlFetch {
  return async (url, { method, headers, body }) => {
    const response = await request.fetch(url, { method, headers, ...(body === undefined ? {} : { data: body }), failOnStatusCode: false, maxRedirects: 0 });
    const status = response.status();
    return new Response(NULL_BODY.has(status) ? null : new Uint8Array(await response.body()), { status, headers: response.headers() });
  };
}

const PLAYWRIGHT_WORDING = {
  baseURL: "Set use.baseURL in playwright.config.ts to the app's origin",
  endpoints: 'use.harnessEndpoints',
};

/**
 * One test's handle on the app's control endpoints (SPEC §4): the client of
 * `scenario-harness/client`, sending through Playwright's request context. The Playwright
 * fixture builds one per test as `harness`.
 *
 * @example
 * const client = new HarnessClient({ request, testId: 'checkout-1', baseURL: 'http://127.0.0.1:3000' });
 * await client.switchScenario('paymentDeclined');
 * const state = await client.waitForState((s) => s['cart.lastAmount'] === 2500);
 * await client.endTest();
 * @see https://github.com/scenario-harness/scenario-harness/blob/main/docs/client.md
 */
export class HarnessClient<S extends ScenarioMap = ScenarioMap> extends ControlClient<S> {
  constructor({ request, testId, baseURL, endpoints, token }: HarnessClientOptions) {
    super({ testId, baseURL, endpoints, fetch: playwrightFetch(request), wording: PLAYWRIGHT_WORDING, token });
  }
}
