import { setTimeout as delay } from 'node:timers/promises';
import { DEFAULT_ENDPOINTS, HINT_HEADER } from '../core/constants.js';
import { readHintHeader } from '../core/control/hint-header.js';
import type { ScenarioId, VariantName } from '../core/create-harness.js';
import { consoleLogger, quote, type Logger } from '../core/dev-utils.js';
import { HarnessError } from '../core/errors.js';
import type { TestState } from '../core/store/session-store.js';
import type { ActiveScenario, HarnessEndpoints, Mock, ScenarioMap, ScenarioSummary } from '../core/types.js';
import { toPlainMocks } from '../core/test-mocks/to-plain-mocks.js';
import type { JournalEntry } from '../core/journal/journal-entry.js';
import { isBrowserCallAnswer, type BrowserCallAnswer, type BrowserCallRequest } from './browser-call.js';
import { compileCallFilter, type CallFilter } from './compile-call-filter.js';
import { describeContractViolations } from './describe-contract-violations.js';
import { describeCall } from './describe-call.js';
import { describeCallsSeen } from './describe-calls-seen.js';
import { testIdHeaders } from './harness-baggage.js';
import { isConnectionReset } from './is-connection-reset.js';

/**
 * How the client sends a control request: the Fetch API's `fetch`, or anything with its
 * shape (Playwright's request context, an in-process `harness.handle`).
 */
export type ControlFetch = (url: string, init: { method: string; headers: Record<string, string>; body?: string; redirect: 'manual' }) => Promise<Response>;

export interface SwitchScenarioOptions<V extends string = string> {
  /**
   * A variant of the scenario: typed from the variants the scenario declares, any string when
   * it declares none. The app accepts and echoes any name (SPEC §2) and warns about an
   * undeclared one, which this client logs.
   */
  variant?: V;
}

export interface WaitForStateOptions {
  /** Milliseconds to keep polling; `0` polls until the test runner's own timeout. @default 5000 */
  timeout?: number;
  /** One pause between polls, in milliseconds (instead of `intervals`). */
  interval?: number;
  /** Pauses between polls, in milliseconds; the last one repeats. @default [100, 250, 500, 1000] */
  intervals?: number[];
}

export interface WaitForCallOptions {
  /** Milliseconds to keep polling the journal; `0` polls until the test runner's own timeout. @default 5000 */
  timeout?: number;
  /** Milliseconds between two reads of the journal. @default 100 */
  interval?: number;
}

export interface ExpectCalledOptions {
  /** How many calls must match, exactly. @default at least one */
  times?: number;
}

/** The active scenario of a test, as `GET /__scenario__` reports it. */
export interface ActiveScenarioInfo<S extends ScenarioMap = ScenarioMap> extends ActiveScenario {
  scenarioId: ScenarioId<S>;
  scenarioName?: string;
}

/** One scenario of the app's catalogue (`GET /__harness__/scenarios`). */
export interface ScenarioInfo<S extends ScenarioMap = ScenarioMap> extends ScenarioSummary {
  id: ScenarioId<S>;
}

/** What a client is built from; `createHarnessClient()` and the Playwright fixture fill it in. */
export interface HarnessClientInit {
  testId: string;
  /** Origin of the app under test; checked when a call needs it. */
  baseURL: string | undefined;
  endpoints?: HarnessEndpoints;
  fetch: ControlFetch;
  /** Where the app's warnings about a switch are written. @default console, prefixed `[scenario-harness]` */
  logger?: Pick<Logger, 'warn'>;
  /** How messages name the options that fix a missing baseURL and wrong endpoint paths. */
  wording?: { baseURL: string; endpoints: string };
  /** Sent on control calls as `Authorization: Bearer <token>` (`createHarness({ access })`). */
  token?: string | undefined;
}

/** A control request's outcome: its status and its body (parsed when it is JSON). */
interface ControlResponse {
  status: number;
  body: unknown;
  /** The app's help beyond the SPEC body (`x-harness-hint`): a "did you mean", an undeclared variant. */
  hint: string | undefined;
}

/** A control call is tried this often when the connection is reset under it. */
const MAX_ATTEMPTS = 3;
const STATE_PREVIEW_LIMIT = 2000;
/** What `stopRecording()` returns: the draft scenario file of the test's recorded calls. */
export interface RecordedDraft {
  testId: string;
  /** How many calls were recorded. */
  exchanges: number;
  /** The scenario map, as data. */
  scenarios: Record<string, unknown>;
  /** What was redacted (field and reason, never the value). */
  redactions: unknown[];
  notes: string[];
  /** The file to write (JSON or YAML). */
  fileText: string;
}

const DEFAULT_WORDING = { baseURL: 'Pass createHarnessClient({ baseURL }) the app\'s origin', endpoints: 'the client\'s endpoints option' };

/**
 * One test's handle on the app's control endpoints (SPEC §4): switch its scenario, read its
 * state, wait for it, and end the test. Every call carries the test ID in `x-harness-test-id`
 * and in the W3C `baggage` member `harness-test-id`. A call whose connection is reset (an idle
 * keep-alive connection the app just closed) is tried again, up to three times in all.
 * Built by `createHarnessClient()`; the Playwright fixture's `harness` is one too.
 */
export class HarnessClient<S extends ScenarioMap = ScenarioMap> {
  /** This test's ID: the value of `x-harness-test-id` on every request of the test. */
  readonly testId: string;
  /** The control endpoint paths in use, defaults filled in. */
  readonly endpoints: Readonly<Required<HarnessEndpoints>>;
  readonly #baseURL: string | undefined;
  readonly #fetch: ControlFetch;
  readonly #logger: Pick<Logger, 'warn'>;
  readonly #wording: { baseURL: string; endpoints: string };
  /** `{ authorization: 'Bearer …' }`, or nothing: only control calls carry it. */
  readonly #credentials: Record<string, string>;
  /**
   * A control path of this app that has answered 2xx, if any: a later 404 on another path then
   * means a missing route (Next.js serves each path from its own route file), not a harness
   * that is off.
   */
  #servedPath: string | undefined;

  constructor({ testId, baseURL, endpoints, fetch, logger = consoleLogger, wording = DEFAULT_WORDING, token }: HarnessClientInit) {
    if (typeof testId !== 'string' || testId === '') {
      throw new HarnessError('INVALID_TEST_ID', `Expected a non-empty test ID for the harness client, instead got ${JSON.stringify(testId)}.`);
    }
    this.testId = testId;
    this.endpoints = Object.freeze({ ...DEFAULT_ENDPOINTS, ...endpoints });
    this.#baseURL = baseURL;
    this.#fetch = fetch;
    this.#logger = logger;
    this.#wording = wording;
    this.#credentials = token === undefined ? {} : { authorization: `Bearer ${token}` };
  }

  /**
   * The headers to put on the app's own requests so they run as this test:
   * `x-harness-test-id` and `baggage: harness-test-id=<id>` (a new object each time).
   *
   * @example
   * await fetch(`${baseURL}/checkout`, { method: 'POST', headers: client.headers });
   * await request(app).get('/checkout').set(client.headers); // supertest
   */
  get headers(): Record<string, string> {
    return testIdHeaders(this.testId);
  }

  /**
   * Select a scenario (and variant) for this test; its state and sequence positions start over.
   * Throws with the server's error text when the app refuses, e.g. for an unregistered scenario
   * (with the registered ID it is close to).
   */
  async switchScenario<K extends ScenarioId<S>>(scenarioId: K, { variant }: SwitchScenarioOptions<VariantName<S, K>> = {}): Promise<void> {
    const action = `switch test ${quote(this.testId)} to scenario ${quote(scenarioId)}${variant === undefined ? '' : ` (variant ${quote(variant)})`}`;
    const body = variant === undefined ? { scenario: scenarioId } : { scenario: scenarioId, variant };
    const response = await this.#send(action, 'POST', this.endpoints.setScenario, body);
    if (response.status !== 200) this.#fail(action, 'POST', this.endpoints.setScenario, response);
    if (response.hint !== undefined) {
      this.#logger.warn(`Switched test ${quote(this.testId)} to scenario ${quote(scenarioId)}, but: ${response.hint}`);
    }
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
   * await client.waitForState((state) => state['cart.lastAmount'] === 2500, { timeout: 2000 });
   */
  async waitForState(predicate: (state: TestState) => unknown, options: WaitForStateOptions = {}): Promise<TestState> {
    const { timeout = 5000, interval, intervals = interval === undefined ? [100, 250, 500, 1000] : [interval] } = options;
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

  /**
   * Add mocks for this test only: they answer before its scenario (and its variant and
   * `default`), stay across a switch (which starts their sequences over) and end with the test.
   * Each call adds to those before; on a tie the newest wins. Checked by the app like a
   * scenario's mocks: an invalid one is refused, naming its field, and nothing is added.
   * Returns how many mocks the test now has.
   *
   * @example
   * await harness.use({ method: 'POST', url: 'https://api.example.com/orders', sequence: { responses: [{ status: 201 }, { status: 201 }, { status: 409 }] } });
   * @see https://github.com/scenario-harness/scenario-harness/blob/main/docs/client.md#one-answer-for-one-test
   */
  async use(...mocks: Mock[]): Promise<number> {
    const action = `add ${mocks.length} ${mocks.length === 1 ? 'mock' : 'mocks'} for test ${quote(this.testId)}`;
    const response = await this.#send(action, 'POST', this.endpoints.mocks, { mocks: toPlainMocks(mocks, refuseFunction) });
    if (response.status !== 200 || !isRecord(response.body) || typeof response.body.mocks !== 'number') this.#fail(action, 'POST', this.endpoints.mocks, response);
    return (response.body as { mocks: number }).mocks;
  }

  /** Remove the mocks this test added with `use()` (its scenario, state and journal stay). */
  async resetMocks(): Promise<void> {
    const action = `remove the mocks of test ${quote(this.testId)}`;
    const response = await this.#send(action, 'DELETE', this.endpoints.mocks);
    if (response.status !== 200) this.#fail(action, 'DELETE', this.endpoints.mocks, response);
  }

  /**
   * Merge keys into this test's state, by the rules of `afterResponse.setState` (dots are part
   * of a key, `items[]` appends), for templates and `match.state` to read. A switch clears the
   * state: switch first, then seed. Returns the state after the merge.
   *
   * @example
   * await harness.switchScenario('checkout');
   * await harness.setState({ 'user.id': 'u-1', 'user.plan': 'pro' });
   */
  async setState(state: Record<string, unknown>): Promise<TestState> {
    const action = `set the state of test ${quote(this.testId)}`;
    const response = await this.#send(action, 'POST', this.endpoints.getState, { state });
    if (response.status !== 200 || !isRecord(response.body) || !isRecord(response.body.state)) this.#fail(action, 'POST', this.endpoints.getState, response);
    return (response.body as { state: TestState }).state;
  }

  /**
   * Answer a call the test's browser made from this test's session, as the app answers its own
   * calls (same scenario, own mocks, state and sequences; journaled with `side: 'browser'`). For
   * runners that route the browser's requests by hand (Cypress `cy.intercept`, WebdriverIO
   * `mock`); the Playwright fixture does it with `harnessBrowser`. The answer's `delay` has
   * already passed when it resolves.
   * @example
   * const answer = await client.answer({ method: 'GET', url: 'https://maps.example.test/v1/geocode?q=Paris', headers: { origin: 'http://127.0.0.1:3000' } });
   * if (answer.answered && answer.fault === undefined) reply(answer.status, answer.headers, Buffer.from(answer.bodyBase64, 'base64'));
   * else if (!answer.answered && answer.action === 'continue') passThrough();
   * else abort();
   * @see https://github.com/scenario-harness/scenario-harness/blob/main/docs/client.md
   */
  async answer(call: BrowserCallRequest): Promise<BrowserCallAnswer> {
    const action = `answer the browser's call ${call.method} ${call.url} for test ${quote(this.testId)}`;
    const response = await this.#send(action, 'POST', this.endpoints.answer, call);
    if (response.status !== 200 || !isBrowserCallAnswer(response.body)) this.#fail(action, 'POST', this.endpoints.answer, response);
    return response.body as BrowserCallAnswer;
  }

  /** Make the app forget this test: scenario, state, sequence positions and its own mocks (`DELETE` on the switch path). */
  async endTest(): Promise<void> {
    const action = `end test ${quote(this.testId)}`;
    const response = await this.#send(action, 'DELETE', this.endpoints.setScenario);
    if (response.status !== 200) this.#fail(action, 'DELETE', this.endpoints.setScenario, response);
  }

  /**
   * The outgoing calls the app made for this test, oldest first, as its journal recorded them
   * (`GET /__harness__/journal`): what was sent (secrets redacted), which mock answered, or
   * why none did. `filter` narrows them, the body by partial deep match.
   *
   * @example
   * const [charge] = await client.calls({ method: 'POST', url: '*\/v1/charges' });
   * expect(charge?.requestBody).toMatchObject({ amount: 5000 });
   * @see https://github.com/scenario-harness/scenario-harness/blob/main/docs/journal.md
   */
  async calls(filter: CallFilter = {}): Promise<JournalEntry[]> {
    const compiled = compileCallFilter(filter, 'calls()');
    return compiled.select(await this.#readCalls(`read the calls of test ${quote(this.testId)}`));
  }

  /**
   * Wait until the app has made a call that matches `filter` for this test, and return it (the
   * oldest such call; at once when one is already in the journal). Polls the journal; on
   * timeout the error shows the calls seen and why the closest ones do not match.
   *
   * @example
   * await page.getByRole('button', { name: 'Pay' }).click();
   * const charge = await harness.waitForCall({ method: 'POST', url: '*\/v1/charges' }, { timeout: 2000 });
   */
  async waitForCall(filter: CallFilter, options: WaitForCallOptions = {}): Promise<JournalEntry> {
    const compiled = compileCallFilter(filter, 'waitForCall()');
    const { timeout = 5000, interval = 100 } = options;
    checkDuration('waitForCall()', 'timeout', timeout, 0);
    checkDuration('waitForCall()', 'interval', interval, 1);
    const action = `wait for test ${quote(this.testId)} to call ${compiled.description}`;
    const started = Date.now();
    for (let poll = 1; ; poll += 1) {
      const entries = await this.#readCalls(action);
      const [found] = compiled.select(entries);
      if (found !== undefined) return found;
      const remaining = timeout === 0 ? Infinity : started + timeout - Date.now();
      if (remaining <= 0) {
        throw new Error(`Failed to ${action}: no such call within ${timeout} ms (${poll} ${poll === 1 ? 'poll' : 'polls'}).\n${describeCallsSeen(entries, compiled)}`);
      }
      await delay(Math.min(interval, remaining));
    }
  }

  /**
   * Assert that the app made calls matching `filter` for this test: at least one, or exactly
   * `times`. Returns the matching calls. On failure the error shows the closest calls, each
   * with the first criterion it fails (`body.amount: expected 5000, received 4000`, in the
   * engine's near-miss wording), and why no mock answered an unanswered one. The journal is
   * read once: to wait for a call first, use `waitForCall`.
   *
   * @example
   * await harness.expectCalled({ method: 'POST', url: '*\/v1/charges', body: { amount: 5000 } }, { times: 1 });
   */
  async expectCalled(filter: CallFilter, options: ExpectCalledOptions = {}): Promise<JournalEntry[]> {
    const compiled = compileCallFilter(filter, 'expectCalled()');
    const { times } = options;
    if (times !== undefined && (!Number.isSafeInteger(times) || times < 0)) {
      throw new HarnessError('INVALID_ARGUMENT', `Invalid options for expectCalled(): expected "times" to be a whole number of 0 or more, instead got ${JSON.stringify(times) ?? typeof times}.`);
    }
    const entries = await this.#readCalls(`read the calls of test ${quote(this.testId)}`);
    const matched = compiled.select(entries);
    const wanted = times === undefined ? 'at least once' : times === 0 ? 'never' : times === 1 ? 'exactly once' : `exactly ${times} times`;
    const expected = `Expected test ${quote(this.testId)} to call ${compiled.description} ${wanted}`;
    // An exact count over calls whose body the journal cut could pass on a call it never saw: fail instead.
    const unsure = times === undefined ? [] : compiled.unsure(entries);
    if (unsure.length > 0) {
      const listed = unsure.map((entry) => `  ${describeCall(entry)}`).join('\n');
      throw new Error(
        `${expected}, but ${unsure.length === 1 ? '1 call' : `${unsure.length} calls`} to it had a body over the journal's maxBodyBytes, kept cut, so whether it matches cannot be told (${matched.length} matched):\n${listed}\nRaise journal.maxBodyBytes in createHarness({ journal: { maxBodyBytes } }) above the body's size.`,
      );
    }
    if (times === undefined ? matched.length > 0 : matched.length === times) return matched;
    if (matched.length === 0) throw new Error(`${expected}, but it made no such call.\n${describeCallsSeen(entries, compiled)}`);
    const listed = matched.map((entry) => `  ${describeCall(entry)}`).join('\n');
    throw new Error(`${expected}, but it made ${matched.length === 1 ? '1 such call' : `${matched.length} such calls`}:\n${listed}`);
  }

  /**
   * Assert that none of this test's calls broke its API document, as the app's harness checks
   * them with `createHarness({ contracts })`: the error lists every violation under its call's
   * method and URL. Returns the calls checked against a document (their `contractViolations`
   * empty). Calls under no document's servers, and every call of an app without `contracts`,
   * are not checked, so they pass.
   *
   * @example
   * await page.getByRole('button', { name: 'Pay' }).click();
   * await harness.expectNoContractViolations();
   * @see https://github.com/scenario-harness/scenario-harness/blob/main/docs/contracts.md
   */
  async expectNoContractViolations(): Promise<JournalEntry[]> {
    const entries = await this.#readCalls(`read the calls of test ${quote(this.testId)}`);
    const failure = describeContractViolations(entries, this.testId);
    if (failure !== undefined) throw new Error(failure);
    return entries.filter((entry) => entry.contractViolations !== undefined);
  }

  /** Empty this test's journal (its scenario, state and sequences stay): later verifications see only later calls. */
  async clearCalls(): Promise<void> {
    const action = `clear the calls of test ${quote(this.testId)}`;
    const response = await this.#send(action, 'DELETE', this.endpoints.journal);
    if (response.status !== 200) this.#fail(action, 'DELETE', this.endpoints.journal, response);
  }

  /**
   * Start recording this test's calls in the app: in `'missing'` mode its scenario answers what
   * it can and the other calls go to the real APIs and are kept; in `'all'` mode every call is.
   */
  async startRecording(mode: 'missing' | 'all' = 'missing'): Promise<void> {
    const action = `start recording test ${quote(this.testId)}`;
    const response = await this.#send(action, 'POST', this.endpoints.record, { mode });
    if (response.status !== 200) this.#fail(action, 'POST', this.endpoints.record, response);
  }

  /**
   * Stop recording and get the draft scenario file of the recorded calls (secrets redacted,
   * checked for leaks): its text in `fileText`, ready to write.
   */
  async stopRecording(options: { format?: 'json' | 'yaml' } = {}): Promise<RecordedDraft> {
    const action = `stop recording test ${quote(this.testId)}`;
    const path = `${this.endpoints.record}?format=${options.format ?? 'json'}`;
    const response = await this.#send(action, 'DELETE', path);
    if (response.status !== 200 || !isRecord(response.body) || typeof response.body.fileText !== 'string') this.#fail(action, 'DELETE', path, response);
    return response.body as unknown as RecordedDraft;
  }

  async #readCalls(action: string): Promise<JournalEntry[]> {
    const response = await this.#send(action, 'GET', this.endpoints.journal);
    if (response.status !== 200 || !isRecord(response.body) || !Array.isArray(response.body.calls)) this.#fail(action, 'GET', this.endpoints.journal, response);
    return (response.body as { calls: JournalEntry[] }).calls;
  }

  /** The app's registered scenarios with their names, descriptions and declared variants (`GET /__harness__/scenarios`). */
  async listScenarios(): Promise<ScenarioInfo<S>[]> {
    const action = 'list the scenarios';
    const response = await this.#send(action, 'GET', this.endpoints.scenarios);
    if (response.status !== 200 || !isRecord(response.body) || !Array.isArray(response.body.scenarios)) {
      this.#fail(action, 'GET', this.endpoints.scenarios, response);
    }
    return (response.body as { scenarios: ScenarioInfo<S>[] }).scenarios;
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
    // @note Every call says JSON, a bodiless DELETE included: SvelteKit's and Astro's CSRF checks
    // refuse a cross-site-looking DELETE or POST with no content type (or text/plain) in production.
    const headers = { ...this.headers, ...this.#credentials, 'content-type': 'application/json' };
    const init = { method, headers, redirect: 'manual' as const, ...(data === undefined ? {} : { body: JSON.stringify(data) }) };
    for (let attempt = 1; ; attempt += 1) {
      try {
        const response = await this.#fetch(url, init);
        const text = await response.text();
        if (response.status >= 200 && response.status < 300) this.#servedPath = path.split('?')[0];
        return { status: response.status, body: parseJson(text) ?? text, hint: readHintHeader(response.headers.get(HINT_HEADER)) };
      } catch (error) {
        // @note A keep-alive connection the app closed as idle can be reset under the next
        // request before the client notices; the request never reached the app, so it is sent
        // again on a new connection. Control calls are idempotent (a switch, read or end).
        if (attempt < MAX_ATTEMPTS && isConnectionReset(error)) continue;
        const retried = attempt > 1 ? ` (${attempt} attempts; the connection was reset each time)` : '';
        throw new Error(`Failed to ${action}: ${method} ${url} failed: ${describeError(error)}${retried}. Is the app running at ${this.#baseURL}?`, { cause: error });
      }
    }
  }

  #url(action: string, path: string): string {
    if (this.#baseURL === undefined || this.#baseURL === '') {
      throw new HarnessError('INVALID_OPTIONS', `Failed to ${action}: no baseURL. ${this.#wording.baseURL}.`);
    }
    return new URL(path, this.#baseURL).href;
  }

  #fail(action: string, method: string, path: string, { status, body, hint: hinted }: ControlResponse): never {
    const where = `${method} ${new URL(path, this.#baseURL).href}`;
    const serverError = isRecord(body) && typeof body.error === 'string' ? body.error : undefined;
    const hint = hinted === undefined ? '' : ` ${hinted}`;
    const details = isRecord(body) && body.details !== undefined ? ` Details: ${JSON.stringify(body.details)}` : '';
    const pathname = path.split('?')[0]!;
    if (status === 404 && serverError === undefined && this.#servedPath !== undefined && this.#servedPath !== pathname) {
      throw new HarnessError(
        'INVALID_OPTIONS',
        `Failed to ${action}: ${where} answered 404, while ${this.#servedPath} on the same app answered: the harness is on, but nothing in the app serves ${pathname}. ${MISSING_ROUTE_REMEDY}`,
      );
    }
    if (status === 404 && serverError === undefined) {
      throw new HarnessError(
        'INVALID_OPTIONS',
        `Failed to ${action}: ${where} answered 404. Check that the app runs with the harness enabled (createHarness({ enabled: true })) and that ${this.#wording.endpoints} matches its endpoints (on Next.js, that each has its route file).`,
      );
    }
    const said = serverError ?? (typeof body === 'string' && body !== '' ? body.slice(0, 200) : '(no body)');
    const message = `Failed to ${action}: ${where} answered ${status}: ${said}${hint}${details}`;
    if (status === 400 && /not found/i.test(said)) throw new HarnessError('UNKNOWN_SCENARIO', message);
    if (status >= 400 && status < 500) throw new HarnessError('INVALID_ARGUMENT', message);
    throw new Error(`${message} See the app's log for the cause.`);
  }
}

/** Why `use()` sends no response function. */
const refuseFunction = (field: string) =>
  `Failed to send the test's mocks: ${field} is a function. Mocks travel to the app as JSON, so a response function runs only when the app's own code adds it (harness.useMocks(testId, mocks) in the app's process); from a test, give the response as data (templates such as "{{params.id}}" and sequences cover most per-call answers).`;

/** Where a framework routes each path to its own file, the control paths need theirs. */
const MISSING_ROUTE_REMEDY =
  "On Next.js's App Router, every control path needs a route file: app/%5F%5Fscenario%5F%5F/route.ts, and app/%5F%5Fharness%5F%5F/[[...path]]/route.ts for every /__harness__/ path (the Next.js guide, step 5).";

function checkDuration(where: string, name: string, value: unknown, minimum: number): void {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < minimum) {
    throw new HarnessError('INVALID_ARGUMENT', `Invalid options for ${where}: expected "${name}" to be a number of milliseconds of ${minimum} or more, instead got ${JSON.stringify(value) ?? typeof value}.`);
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

/** `TypeError: fetch failed (Error: connect ECONNREFUSED …)`: the error's first line, and its innermost cause's. */
function describeError(error: unknown): string {
  const firstLine = (value: unknown) => {
    const text = value instanceof Error ? `${value.name}: ${value.message}` : String(value);
    // Playwright appends a multi-line call log; its first line says what went wrong.
    return (text.split('\n')[0] ?? text).trim();
  };
  let cause: unknown = error instanceof Error ? error.cause : undefined;
  for (let depth = 0; depth < 8 && cause instanceof Error && cause.cause instanceof Error; depth += 1) cause = cause.cause;
  return cause instanceof Error ? `${firstLine(error)} (${firstLine(cause)})` : firstLine(error);
}

function previewState(state: TestState): string {
  const json = JSON.stringify(state);
  return json.length > STATE_PREVIEW_LIMIT ? `${json.slice(0, STATE_PREVIEW_LIMIT)}… (${json.length} characters)` : json;
}
