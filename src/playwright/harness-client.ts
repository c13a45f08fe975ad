import { setTimeout as delay } from 'node:timers/promises';
import type { APIRequestContext, APIResponse } from '@playwright/test';
import { DEFAULT_ENDPOINTS, TEST_ID_HEADER } from '../core/constants.js';
import type { ScenarioId } from '../core/create-harness.js';
import { quote } from '../core/dev-utils.js';
import { HarnessError } from '../core/errors.js';
import type { TestState } from '../core/store/session-store.js';
import type { ActiveScenario, HarnessEndpoints, ScenarioMap } from '../core/types.js';

export interface HarnessClientOptions {
  /** What sends the control requests: Playwright's `APIRequestContext` (anything with its `fetch`). */
  request: Pick<APIRequestContext, 'fetch'>;
  /** The test ID every control request carries in `x-harness-test-id`. */
  testId: string;
  /** Origin of the app under test; the endpoint paths are resolved against it. */
  baseURL: string | undefined;
  /** Paths of the app's control endpoints. @default { setScenario: '/__scenario__', getScenario: '/__scenario__', getState: '/__harness__/state' } */
  endpoints?: HarnessEndpoints;
}

export interface SwitchScenarioOptions {
  /** A variant of the scenario; the server accepts and echoes any name (SPEC §2). */
  variant?: string;
}

export interface WaitForStateOptions {
  /** Milliseconds to keep polling; `0` polls until the test's own timeout. @default 5000 */
  timeout?: number;
  /** Pauses between polls, in milliseconds; the last one repeats. @default [100, 250, 500, 1000] */
  intervals?: number[];
}

/** The active scenario of a test, as `GET /__scenario__` reports it. */
export interface ActiveScenarioInfo<S extends ScenarioMap = ScenarioMap> extends ActiveScenario {
  scenarioId: ScenarioId<S>;
  scenarioName?: string;
}

/** A control request's outcome: its status and its body (parsed when it is JSON). */
interface ControlResponse {
  status: number;
  body: unknown;
}

const STATE_PREVIEW_LIMIT = 2000;

/**
 * One test's handle on the app's control endpoints (SPEC §4): switch its scenario, read its
 * state, and end it. The Playwright fixture builds one per test as `harness`.
 *
 * @example
 * const client = new HarnessClient({ request, testId: 'checkout-1', baseURL: 'http://127.0.0.1:3000' });
 * await client.switchScenario('paymentDeclined');
 * const state = await client.waitForState((s) => s['cart.lastAmount'] === 2500);
 * await client.endTest();
 * @see https://github.com/scenario-harness/scenario-harness#playwright
 */
export class HarnessClient<S extends ScenarioMap = ScenarioMap> {
  /** This test's ID: the value of `x-harness-test-id` on every request of the test. */
  readonly testId: string;
  /** The control endpoint paths in use, defaults filled in. */
  readonly endpoints: Readonly<Required<HarnessEndpoints>>;
  readonly #request: Pick<APIRequestContext, 'fetch'>;
  readonly #baseURL: string | undefined;

  constructor({ request, testId, baseURL, endpoints }: HarnessClientOptions) {
    if (typeof testId !== 'string' || testId === '') {
      throw new HarnessError('INVALID_TEST_ID', `Expected a non-empty test ID for the harness client, instead got ${JSON.stringify(testId)}.`);
    }
    this.#request = request;
    this.testId = testId;
    this.#baseURL = baseURL;
    this.endpoints = Object.freeze({ ...DEFAULT_ENDPOINTS, ...endpoints });
  }

  /**
   * Select a scenario (and variant) for this test; its state and sequence positions start over.
   * Throws with the server's error text when the app refuses, e.g. for an unregistered scenario.
   */
  async switchScenario(scenarioId: ScenarioId<S>, { variant }: SwitchScenarioOptions = {}): Promise<void> {
    const action = `switch test ${quote(this.testId)} to scenario ${quote(scenarioId)}${variant === undefined ? '' : ` (variant ${quote(variant)})`}`;
    const body = variant === undefined ? { scenario: scenarioId } : { scenario: scenarioId, variant };
    const response = await this.#send(action, 'POST', this.endpoints.setScenario, body);
    if (response.status !== 200) this.#fail(action, 'POST', this.endpoints.setScenario, response);
  }

  /** The scenario this test selected, or `undefined` when it selected none (the app answers `default`). */
  async getActiveScenario(): Promise<ActiveScenarioInfo<S> | undefined> {
    const action = `read the active scenario of test ${quote(this.testId)}`;
    const response = await this.#send(action, 'GET', this.endpoints.getScenario);
    // SPEC §4.2: 404 with the test ID in the body means "no scenario selected"; any other 404 is a misconfiguration.
    if (response.status === 404 && isRecord(response.body) && response.body.testId === this.testId) return undefined;
    if (response.status !== 200 || !isRecord(response.body)) this.#fail(action, 'GET', this.endpoints.getScenario, response);
    const { scenarioId, scenarioName, variant } = response.body as { scenarioId: ScenarioId<S>; scenarioName?: string; variant?: string };
    return { scenarioId, ...(scenarioName === undefined ? {} : { scenarioName }), ...(variant === undefined ? {} : { variant }) };
  }

  /** What this test's mocks wrote into its state (`{}` when nothing yet). */
  async getState(): Promise<TestState> {
    return this.#readState(`read the state of test ${quote(this.testId)}`);
  }

  /**
   * Poll this test's state until `predicate` returns a truthy value, and return that state.
   * A predicate that throws counts as "not yet". On timeout the error shows the last state seen.
   *
   * @example
   * await page.getByTestId('pay').click();
   * await harness.waitForState((state) => state['cart.lastAmount'] === 2500);
   */
  async waitForState(predicate: (state: TestState) => unknown, { timeout = 5000, intervals = [100, 250, 500, 1000] }: WaitForStateOptions = {}): Promise<TestState> {
    const action = `wait for the state of test ${quote(this.testId)}`;
    const started = Date.now();
    let predicateError: unknown;
    for (let poll = 1; ; poll += 1) {
      const state = await this.#readState(action);
      try {
        if (await predicate(state)) return state;
        predicateError = undefined;
      } catch (error) {
        predicateError = error;
      }
      const remaining = timeout === 0 ? Infinity : started + timeout - Date.now();
      if (remaining <= 0) {
        const lastError = predicateError === undefined ? '' : ` The predicate last threw: ${describeError(predicateError)}.`;
        throw new Error(
          `Failed to ${action}: the predicate did not hold within ${timeout} ms (${poll} ${poll === 1 ? 'poll' : 'polls'}). Last state seen: ${previewState(state)}.${lastError} Check what the app's mocks write (harness.getState()) or raise { timeout }.`,
        );
      }
      await delay(Math.min(intervals[Math.min(poll - 1, intervals.length - 1)] ?? 100, remaining));
    }
  }

  /** Make the app forget this test: scenario, state and sequence positions (`DELETE` on the switch path). */
  async endTest(): Promise<void> {
    const action = `end test ${quote(this.testId)}`;
    const response = await this.#send(action, 'DELETE', this.endpoints.setScenario);
    if (response.status !== 200) this.#fail(action, 'DELETE', this.endpoints.setScenario, response);
  }

  async #readState(action: string): Promise<TestState> {
    const response = await this.#send(action, 'GET', this.endpoints.getState);
    if (response.status !== 200 || !isRecord(response.body) || !isRecord(response.body.state)) {
      this.#fail(action, 'GET', this.endpoints.getState, response);
    }
    return (response.body as { state: TestState }).state;
  }

  async #send(action: string, method: string, path: string, data?: unknown): Promise<ControlResponse> {
    const url = this.#url(action, path);
    let response: APIResponse;
    try {
      response = await this.#request.fetch(url, {
        method,
        headers: { [TEST_ID_HEADER]: this.testId, ...(data === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(data === undefined ? {} : { data }),
        failOnStatusCode: false,
        maxRedirects: 0,
      });
    } catch (error) {
      throw new Error(`Failed to ${action}: ${method} ${url} failed: ${describeError(error)}. Is the app running at ${this.#baseURL}?`, { cause: error });
    }
    const text = await response.text();
    return { status: response.status(), body: parseJson(text) ?? text };
  }

  #url(action: string, path: string): string {
    if (this.#baseURL === undefined || this.#baseURL === '') {
      throw new HarnessError('INVALID_OPTIONS', `Failed to ${action}: no baseURL. Set use.baseURL in playwright.config.ts to the app's origin.`);
    }
    return new URL(path, this.#baseURL).href;
  }

  #fail(action: string, method: string, path: string, { status, body }: ControlResponse): never {
    const where = `${method} ${new URL(path, this.#baseURL).href}`;
    const serverError = isRecord(body) && typeof body.error === 'string' ? body.error : undefined;
    const details = isRecord(body) && body.details !== undefined ? ` Details: ${JSON.stringify(body.details)}` : '';
    if (status === 404 && serverError === undefined) {
      throw new HarnessError(
        'INVALID_OPTIONS',
        `Failed to ${action}: ${where} answered 404. Check that the app runs with the harness enabled (createHarness({ enabled: true })) and that use.harnessEndpoints matches its endpoints.`,
      );
    }
    const said = serverError ?? (typeof body === 'string' && body !== '' ? body.slice(0, 200) : '(no body)');
    const message = `Failed to ${action}: ${where} answered ${status}: ${said}${details}`;
    if (status === 400 && /not found/i.test(said)) throw new HarnessError('UNKNOWN_SCENARIO', message);
    if (status >= 400 && status < 500) throw new HarnessError('INVALID_ARGUMENT', message);
    throw new Error(`${message} See the app's log for the cause.`);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function describeError(error: unknown): string {
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  // Playwright appends a multi-line call log; its first line says what went wrong.
  return (message.split('\n')[0] ?? message).trim();
}

function previewState(state: TestState): string {
  const json = JSON.stringify(state);
  return json.length > STATE_PREVIEW_LIMIT ? `${json.slice(0, STATE_PREVIEW_LIMIT)}… (${json.length} characters)` : json;
}
