import { DEFAULT_ENDPOINTS } from '../core/constants.js';
import type { ScenarioId, VariantName } from '../core/create-harness.js';
import { consoleLogger } from '../core/dev-utils.js';
import { HarnessError } from '../core/errors.js';
import type { JournalEntry } from '../core/journal/journal-entry.js';
import type { TestState } from '../core/store/session-store.js';
import type { HarnessEndpoints, Mock, ScenarioMap, SocketFrame, SocketMatch, SocketMock } from '../core/types.js';
import type { BrowserCallAnswer, BrowserCallRequest } from './browser-call.js';
import * as browserAnswers from './browser-answers.js';
import type { ActiveScenarioInfo, ExpectCalledOptions, ExpectSentOptions, RecordedDraft, ScenarioInfo, StreamView, SwitchScenarioOptions, WaitForCallOptions, WaitForFrameOptions, WaitForStateOptions, WaitForStreamOptions } from './client-types.js';
import type { CallFilter } from './compile-call-filter.js';
import { ControlConnection } from './control-connection.js';
import { testIdHeaders } from './harness-baggage.js';
import { DEFAULT_WORDING, type HarnessClientInit } from './harness-client-init.js';
import * as ownMocksAndState from './own-mocks-and-state.js';
import * as recording from './recording.js';
import * as sockets from './sockets.js';
import * as streamHolds from './streams.js';
import * as switching from './switching.js';
import * as verification from './verification.js';

// Each concern keeps its own types; they are exported from here too, where they always were.
export type * from './client-types.js';

// @note Each method's body lives in its concern's file, over one ControlConnection; the class keeps the docs and adds no await.
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
  readonly #connection: ControlConnection;

  constructor({ testId, baseURL, endpoints, fetch, logger = consoleLogger, wording = DEFAULT_WORDING, token }: HarnessClientInit) {
    if (typeof testId !== 'string' || testId === '') {
      throw new HarnessError('INVALID_TEST_ID', `Expected a non-empty test ID for the harness client, instead got ${JSON.stringify(testId)}.`);
    }
    this.testId = testId;
    this.endpoints = Object.freeze({ ...DEFAULT_ENDPOINTS, ...endpoints });
    this.#connection = new ControlConnection({ testId, endpoints: this.endpoints, baseURL, fetch, logger, wording, token });
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
    // `async`, unlike the other methods: options of null then reject, as they always have, instead of throwing.
    return switching.switchScenario(this.#connection, scenarioId, variant);
  }

  /** The scenario this test selected, or `undefined` when it selected none (the app answers `default`). */
  getActiveScenario(): Promise<ActiveScenarioInfo<S> | undefined> {
    return switching.getActiveScenario<S>(this.#connection);
  }

  /** What this test's mocks wrote into its state (`{}` when nothing yet). */
  getState(): Promise<TestState> {
    return ownMocksAndState.getState(this.#connection);
  }

  /**
   * Poll this test's state until `predicate` returns a truthy value, and return that state.
   * A predicate that throws counts as "not yet". On timeout the error shows the last state seen.
   *
   * @example
   * await client.waitForState((state) => state['cart.lastAmount'] === 2500, { timeout: 2000 });
   */
  waitForState(predicate: (state: TestState) => unknown, options?: WaitForStateOptions): Promise<TestState> {
    return ownMocksAndState.waitForState(this.#connection, predicate, options);
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
  use(...mocks: Mock[]): Promise<number> {
    return ownMocksAndState.use(this.#connection, mocks);
  }

  /**
   * Add socket mocks for this test only (as a scenario's `sockets`): they answer before its
   * scenario's, for the sockets the app opens from now on, and go with `resetMocks()` and the
   * test's end. Returns how many socket mocks the test now has.
   *
   * @example
   * await harness.useSockets({ url: 'wss://stream.example.com/prices', onConnect: [{ send: { json: { price: 10 } } }] });
   */
  useSockets(...sockets: SocketMock[]): Promise<number> {
    return ownMocksAndState.useSockets(this.#connection, sockets);
  }

  /** Remove the mocks this test added with `use()` (its scenario, state and journal stay). */
  resetMocks(): Promise<void> {
    return ownMocksAndState.resetMocks(this.#connection);
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
  setState(state: Record<string, unknown>): Promise<TestState> {
    return ownMocksAndState.setState(this.#connection, state);
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
   * else if (!answer.answered && answer.action === 'continue') passThrough(); else abort();
   * @see https://github.com/scenario-harness/scenario-harness/blob/main/docs/client.md
   */
  answer(call: BrowserCallRequest): Promise<BrowserCallAnswer> {
    return browserAnswers.answer(this.#connection, call);
  }

  /** Make the app forget this test: scenario, state, sequence positions and its own mocks (`DELETE` on the switch path). */
  endTest(): Promise<void> {
    return switching.endTest(this.#connection);
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
  calls(filter?: CallFilter): Promise<JournalEntry[]> {
    return verification.calls(this.#connection, filter);
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
  waitForCall(filter: CallFilter, options?: WaitForCallOptions): Promise<JournalEntry> {
    return verification.waitForCall(this.#connection, filter, options);
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
  expectCalled(filter: CallFilter, options?: ExpectCalledOptions): Promise<JournalEntry[]> {
    return verification.expectCalled(this.#connection, filter, options);
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
  expectNoContractViolations(): Promise<JournalEntry[]> {
    return verification.expectNoContractViolations(this.#connection);
  }

  /** Empty this test's journal (its scenario, state and sequences stay): later verifications see only later calls. */
  clearCalls(): Promise<void> {
    return verification.clearCalls(this.#connection);
  }

  /**
   * Start recording this test's calls in the app: in `'missing'` mode its scenario answers what
   * it can and the other calls go to the real APIs and are kept; in `'all'` mode every call is.
   */
  startRecording(mode?: 'missing' | 'all'): Promise<void> {
    return recording.startRecording(this.#connection, mode);
  }

  /**
   * Stop recording and get the draft scenario file of the recorded calls (secrets redacted,
   * checked for leaks): its text in `fileText`, ready to write.
   */
  stopRecording(options?: { format?: 'json' | 'yaml' }): Promise<RecordedDraft> {
    return recording.stopRecording(this.#connection, options);
  }

  /** The app's registered scenarios with their names, descriptions and declared variants (`GET /__harness__/scenarios`). */
  listScenarios(): Promise<ScenarioInfo<S>[]> {
    return switching.listScenarios<S>(this.#connection);
  }

  /** This test's streamed answers, oldest first: each one's id, state, chunks delivered of its total, and where it holds next. */
  streams(): Promise<StreamView[]> {
    return streamHolds.streams(this.#connection);
  }

  /**
   * Wait until this test's stream `id` (its mock's `id`) has sent `delivered` chunks or is in
   * `state`, and return it. A stream its mock holds (`hold: { afterChunks }`) is `'held'` there.
   *
   * @example
   * await harness.waitForStream('chat', { state: 'held' });
   * await expect(page.getByTestId('answer')).toHaveText('Hello');
   * await harness.releaseStream('chat');
   */
  waitForStream(id: string, options?: WaitForStreamOptions): Promise<StreamView> {
    return streamHolds.waitForStream(this.#connection, id, options);
  }

  /** Let this test's held stream `id` run to its end. */
  releaseStream(id: string): Promise<StreamView> {
    return streamHolds.releaseStream(this.#connection, id);
  }

  /** Let `count` more chunks of this test's stream `id` through, then hold it again. @default count 1 */
  stepStream(id: string, count?: number): Promise<StreamView> {
    return streamHolds.stepStream(this.#connection, id, count);
  }

  /** Cut this test's stream `id` off: the app's read of the body fails, as when a connection drops. */
  abortStream(id: string): Promise<StreamView> {
    return streamHolds.abortStream(this.#connection, id);
  }

  /**
   * Push a frame to this test's open sockets of `url` (the socket's URL, or a pattern as a socket
   * mock's `url`): a string as a text frame, `{ json }` as JSON, `{ base64 }` as binary. Resolves
   * with how many sockets got it; none open fails, naming the ones that are.
   *
   * @example
   * await harness.sendToSocket('wss://stream.example.com/prices', { json: { sku: 'book', price: 12 } });
   */
  sendToSocket(url: string, data: SocketFrame): Promise<number> {
    return sockets.sendToSocket(this.#connection, url, data);
  }

  /** Close this test's open sockets of `url` with a close frame (`code` 1000 by default); resolves with how many. */
  closeSocket(url: string, code?: number, reason?: string): Promise<number> {
    return sockets.closeSocket(this.#connection, url, code, reason);
  }

  /** Assert that the app (or page) sent a frame matching `match` on `url` (at least once, or exactly `times`). */
  expectSent(url: string, match: SocketMatch, options?: ExpectSentOptions): Promise<JournalEntry[]> {
    return sockets.expectSent(this.#connection, url, match, options);
  }

  /** Wait until a frame matching `match` went over a socket of `url` (either way, or `direction`), and return its journal entry. */
  waitForFrame(url: string, match: SocketMatch, options?: WaitForFrameOptions): Promise<JournalEntry> {
    return sockets.waitForFrame(this.#connection, url, match, options);
  }
}
