import { quote, type Logger } from './dev-utils.js';
import { describeNearMisses } from './engine/describe-near-misses.js';
import type { MockIndex } from './engine/mock-index.js';
import { HarnessError } from './errors.js';
import { firstTimeFor } from './first-time.js';
import { PASS, type CallOutcome } from './interception/call-outcome.js';
import type { OutgoingCall } from './interception/outgoing-call.js';
import { isLoopbackWithoutLookup } from './is-loopback.js';
import type { CallRecord } from './parts/call-steps.js';
import type { JournalEntry } from './journal/journal-entry.js';
import type { TestState } from './store/session-store.js';
import type { UnhandledCallStrategy } from './types.js';

/** Where an unanswered call was looked up: its test, scenario and layers, so it can explain itself. */
export interface CallLookup {
  testId: string;
  scenarioId: string;
  layers: readonly MockIndex[];
  state: TestState;
  startedAt: number;
}

export interface UnansweredCallOptions {
  unhandled: UnhandledCallStrategy;
  logger: Logger;
  journal: CallRecord | undefined;
  isAllowedHost: (hostname: string, port: number) => boolean;
  /**
   * Loopback calls no mock answers go through, whatever `unhandled` says: an app's own servers
   * and in-process test clients live there. `false` for the standalone server, whose calls come
   * from other processes and must not reach what listens on its loopback.
   */
  loopbackPasses: boolean;
}

/**
 * What happens to a call no mock answers: loopback and `allowHosts` pass; otherwise `unhandled`
 * decides ('error' fails it with the nearest mocks, 'warn' passes it and says so once per
 * endpoint, 'bypass' or a function passes it). Each outcome but loopback is journaled. A
 * `refusal` (why the call may not be passed on: the standalone server's call to no upstream of
 * its own) fails it whatever `unhandled` says.
 */
export function createUnansweredCall({ unhandled, logger, journal, isAllowedHost, loopbackPasses }: UnansweredCallOptions): (call: OutgoingCall, lookup: CallLookup, refusal?: string) => Promise<CallOutcome> {
  const firstWarningOf = firstTimeFor();

  return async function unanswered(call, lookup, refusal) {
    const { url } = call;
    const record = (action: NonNullable<JournalEntry['unhandled']>, nearMisses: string[]) => journal?.unanswered(lookup.testId, call, action, lookup.startedAt, nearMisses);
    // The app's own servers and in-process test clients live on loopback: always let them through.
    // @note Not journaled: in an in-process test the runner's own requests to the app are
    // loopback calls too, and would fill every test's journal with its own control calls.
    if (loopbackPasses && isLoopbackWithoutLookup(url.hostname)) return PASS;
    if (refusal === undefined && isAllowedHost(url.hostname, portOf(url))) {
      await record('passed-through (allowHosts)', []);
      return PASS;
    }
    const nearMisses = await describeNearMisses(call, lookup.layers, lookup.state);
    if (unhandled === 'bypass' && refusal === undefined) {
      await record('passed-through', nearMisses);
      return PASS;
    }
    if (typeof unhandled === 'function' && refusal === undefined) {
      await record('passed-through', nearMisses);
      unhandled(await call.toRequest(), { testId: lookup.testId, scenarioId: lookup.scenarioId, nearMisses });
      return PASS;
    }
    const description = call.upgrade === undefined ? `${call.method} ${url.origin}${url.pathname}` : `the ${upgradeName(call.upgrade)} upgrade ${call.method} ${url.origin}${url.pathname}`;
    const where = `for test ${quote(lookup.testId)} in scenario ${quote(lookup.scenarioId)}`;
    const hints =
      call.upgrade !== undefined
        ? `\n  No socket mock of this test (its own, its variant's, its scenario's or "default"'s sockets) has this URL: add one (docs/websockets.md), or list the host in allowHosts to reach it for real.`
        : nearMisses.length > 0
          ? `\n  Nearest mocks:\n${nearMisses.map((line) => `    - ${line}`).join('\n')}`
          : '\n  No mock in this scenario or in "default" has this URL.';
    const fails = unhandled === 'error' || refusal !== undefined;
    await record(fails ? 'failed' : 'passed-through', nearMisses);
    if (fails) {
      const message =
        refusal === undefined
          ? `No mock answers ${description} ${where}; the call fails (unhandled: 'error'). ${call.upgrade === undefined ? "Add a mock for it, or set unhandled to 'warn' or 'bypass'." : "Add a socket mock for it (a scenario's sockets), or set unhandled to 'warn' or 'bypass' to let it through."}${hints}`
          : `No mock answers ${description} ${where}, and it may not be passed on: ${refusal}. The call fails.${hints}`;
      logger.error(message);
      const error = new HarnessError('UNHANDLED_CALL', `[scenario-harness] ${message}`);
      return { kind: 'fail', error: Object.assign(error, { testId: lookup.testId, scenarioId: lookup.scenarioId, nearMisses }) };
    }
    if (!firstWarningOf(description)) return PASS;
    logger.warn(`No mock answers ${description} ${where}; it goes to the real network (unhandled: 'warn', logged once per endpoint). Add a mock for it, or set unhandled to 'bypass' to silence this.${hints}`);
    return PASS;
  };
}

/** How a message names an upgrade's protocol: `WebSocket` for `websocket`, else as sent. */
function upgradeName(protocol: string): string {
  return protocol === 'websocket' ? 'WebSocket' : `'${protocol}'`;
}

/** The URL's port, its scheme's default when it names none. */
export function portOf(url: URL): number {
  return url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
}
