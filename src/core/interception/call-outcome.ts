import type { CaptureHandle } from '../recording/capture.js';
import type { MockReply } from './mock-reply.js';
import type { OutgoingCall } from './outgoing-call.js';
import type { SocketAnswer } from './socket-connection.js';

/** What happens to an intercepted call: answered by a mock, passed on to the real network, or failed. */
export type CallOutcome =
  | { kind: 'reply'; reply: MockReply }
  /** `capture`: the test records this call; the layer reports the upstream's response to it. */
  | { kind: 'pass'; capture?: CaptureHandle }
  | { kind: 'fail'; error: Error }
  /** An HTTP Upgrade a socket mock answers: the layer hands the client to the socket bridge (socket-bridge.ts). */
  | { kind: 'socket'; socket: SocketAnswer };

export const PASS: CallOutcome = Object.freeze({ kind: 'pass' });

/**
 * A synchronous decision's way of saying "ask the asynchronous path": the call needs a body
 * read, a sequence step, a state write, a store round trip or an explanation.
 */
export const NOT_NOW = Symbol('scenario-harness.notNow');

/** What a synchronous decision returns: a mock's reply, or `NOT_NOW`. */
export type ImmediateOutcome = Extract<CallOutcome, { kind: 'reply' }> | typeof NOT_NOW;

/** What one started harness does with intercepted calls. */
export interface CallListener {
  /** This harness's answer, or `undefined` when none of its mocks matches (the next harness is asked). */
  answer(call: OutgoingCall): Promise<CallOutcome | undefined>;
  /**
   * The same answer without awaiting anything, for the calls that allow it (a store in memory, a
   * mock matched on method and URL alone); `NOT_NOW` for every other call. The common call should
   * create no promise: each costs a microtask, and on Node 22 also AsyncLocalStorage's promise
   * hooks (an await ≈ 120 ns inside a test's context against ≈ 45 ns, measured; Node 24 and 26
   * keep the context in an AsyncContextFrame, with no hooks).
   */
  answerNow?(call: OutgoingCall): ImmediateOutcome;
  /**
   * Asked of the most recently started harness when no harness answered: pass or fail (`unhandled`).
   * `refusal`: why the call may not be passed on (the standalone server: not one of its
   * upstreams); it then fails whatever `unhandled` says, with that reason in the log.
   */
  unanswered(call: OutgoingCall, refusal?: string): Promise<CallOutcome>;
  /**
   * True when a mock of the call's test (its own, variant, scenario or `default`) takes `method`
   * on the call's URL, without answering anything: a browser's CORS preflight asks it of the call
   * it announces.
   */
  mocksUrl(call: OutgoingCall, method: string): Promise<boolean>;
  /** True when a connection this harness did not answer must never leave the machine (`unhandled: 'error'`). */
  readonly blocksNetwork: boolean;
  /** Host patterns that may be reached directly even when `blocksNetwork` (`allowHosts`). */
  isAllowedHost(hostname: string, port: number | undefined): boolean;
  /** The same host patterns as given, for the guard of the worker threads the app starts. */
  readonly allowHosts: readonly (string | RegExp)[];
  /** Hosts whose calls carry the current test ID (`propagate.hosts`). */
  propagatesTo(url: URL): boolean;
  /** Where the layers report trouble (a replaced dispatcher, a blocked socket). */
  readonly logger: { warn(message: string): void; error(message: string, error?: unknown): void };
}

/**
 * The failure a layer that cannot hand a connection over gives a call a socket mock answered
 * (only an HTTP Upgrade gets one, and the layers that carry upgrades hand them to the bridge).
 */
export function socketNotCarried(call: OutgoingCall, layer: string): Error {
  return new Error(`[scenario-harness] A socket mock answers ${call.method} ${call.url.href}, but ${layer} cannot hand the connection to it.`);
}
