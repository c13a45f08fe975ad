import { DEFAULT_SCENARIO_ID } from './constants.js';
import { quote, type Logger } from './dev-utils.js';
import { MAX_JSON_BODY_DEPTH } from './engine/body/parse-json-body.js';
import { buildReply } from './engine/build-response.js';
import { evaluateStateChanges } from './engine/compile-mock.js';
import { mockName } from './engine/describe-near-misses.js';
import type { Resolution } from './engine/resolve-mock.js';
import { runResponseFunction } from './engine/run-response-function.js';
import type { TemplateContext } from './engine/template.js';
import { HarnessError } from './errors.js';
import { firstTimeFor } from './first-time.js';
import type { MockReply } from './interception/mock-reply.js';
import type { OutgoingCall } from './interception/outgoing-call.js';
import { EMPTY_STATE } from './store/apply-state-changes.js';
import type { SessionSnapshot, SessionStore } from './store/session-store.js';
import { setStateRefusalNote } from './store/state-limit-note.js';

export interface MockReplierOptions {
  store: SessionStore;
  logger: Logger;
  /** A `setState` that would take a test's state past this many bytes changes nothing (`limits.maxStateBytes`). */
  maxStateBytes: number;
}

/**
 * What the call listener (answer-call.ts) does once a mock matched: the reply, from templates or
 * the mock's response function, then the mock's `setState`; and the once-per-test note that a
 * call's JSON body nests too deep to be read as JSON.
 */
export function createMockReplier({ store, logger, maxStateBytes }: MockReplierOptions) {
  const stateLimits = { maxBytes: maxStateBytes };
  const firstDeepBodyOf = firstTimeFor();
  const firstFullStateOf = firstTimeFor();

  /**
   * Say once per test that a call's JSON body was kept as text for its depth: a `match.body` or
   * `{{body.x}}` that expected JSON would otherwise miss with no reason given (issue 23, item 14).
   */
  function warnBodyTooDeep(call: OutgoingCall, testId: string): void {
    if (!firstDeepBodyOf(testId)) return;
    logger.warn(
      `The JSON body of ${call.method} ${call.url.href} for test ${quote(testId)} nests deeper than ${MAX_JSON_BODY_DEPTH} levels, so mocks and templates see it as text, not JSON (logged once per test). Send a flatter body if a mock needs to read into it.`,
    );
  }

  /** Write a mock's `setState`; past `limits.maxStateBytes` nothing is written, and the log says so once per test. */
  async function writeState(call: OutgoingCall, testId: string, mock: Resolution['mock'], context: TemplateContext, generation: string): Promise<void> {
    const refused = await store.updateState(testId, evaluateStateChanges(mock, context), generation, stateLimits);
    if (refused === undefined || !firstFullStateOf(testId)) return;
    logger.warn(setStateRefusalNote(testId, refused, maxStateBytes, mockName(mock), `${call.method} ${call.url.href}`));
  }

  /** The reply of the mock that matched: templates, a response function, then its `setState`. */
  async function reply(call: OutgoingCall, testId: string, session: SessionSnapshot | undefined, resolution: Resolution): Promise<MockReply | HarnessError> {
    const { mock } = resolution;
    const active = session?.active;
    const state = session?.state ?? EMPTY_STATE;
    let answer = resolution.response;
    if (answer.fixedReply !== undefined && mock.setState === undefined) return answer.fixedReply;
    const context: TemplateContext = { params: resolution.params, url: call.url, headers: call.headers, body: resolution.body, state, variant: active?.variant };
    if (answer.dynamic !== undefined) {
      const made = await runResponseFunction(answer.dynamic, call, mock, { testId, scenarioId: mock.own ? (active?.scenarioId ?? DEFAULT_SCENARIO_ID) : mock.scenarioId, variant: active?.variant, params: resolution.params, state }, logger);
      if (made instanceof HarnessError) return made;
      answer = made;
    }
    const built = buildReply(answer, context);
    // The generation read with the session: a switch while this call was in flight makes the write a no-op.
    if (mock.setState !== undefined) await writeState(call, testId, mock, context, session?.generation ?? '');
    return built;
  }

  return { reply, warnBodyTooDeep };
}
