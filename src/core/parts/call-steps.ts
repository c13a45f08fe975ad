import type { CompiledMock } from '../engine/compile-mock.js';
import type { MockIndex } from '../engine/mock-index.js';
import type { HarnessError } from '../errors.js';
import type { CallOutcome, NOT_NOW } from '../interception/call-outcome.js';
import type { MockReply } from '../interception/mock-reply.js';
import type { OutgoingCall } from '../interception/outgoing-call.js';
import type { JournalEntry } from '../journal/journal-entry.js';
import type { SessionSnapshot } from '../store/session-store.js';

/**
 * The places on the call path where a part steps in. The call listener (answer-call.ts) runs
 * them in this order; which part brings which is the harness's assembly, not the listener's
 * business. Each is optional, and at most one part may bring each.
 *
 * before the answer:  take('first') → layers → (the scenario's mocks) → take('unmatched')
 * after the answer:   shape (a streamed reply, as the app gets it) → check → record
 */
export interface CallSteps {
  /** Takes a test's call instead of its scenario, passing it on (a recording keeps the upstream's answer). */
  readonly take?: TakeStep;
  /** Lays a test's own layers over its scenario's. */
  readonly layers?: LayerStep;
  /** Judges a mock's reply before the app gets it (the contract checks). */
  readonly check?: AnswerCheck;
  /** Keeps what happened to each call (the journal). */
  readonly record?: CallRecord;
  /** Gives a streamed reply its say for this one call (the streams part's holds). */
  readonly shape?: ReplyShape;
  /** Answers an HTTP Upgrade with a socket mock (the sockets part); the scenario's mocks never answer one. */
  readonly upgrade?: UpgradeStep;
}

export interface UpgradeStep {
  /** A socket mock's answer to the handshake, or `undefined` (then `unhandled` decides, as for any call no mock answers). */
  answer(call: OutgoingCall, testId: string, session: SessionSnapshot | undefined, context: UpgradeContext): Promise<CallOutcome | undefined>;
}

export interface UpgradeContext {
  /** The journal, to keep the socket's life in (`undefined`: it is off). */
  journal: CallRecord | undefined;
  /** True when the socket was opened outside any test's request: it answers from `default`, and its journal entries say so. */
  outsideTest: boolean;
}

/** What happened on a socket a socket mock answers, as the journal keeps it (journal-entry.ts has the fields). */
export interface SocketEvent {
  kind: 'socket.open' | 'socket.frame' | 'socket.close';
  /** The socket's URL (`ws:`/`wss:`). */
  url: string;
  side: 'server' | 'browser';
  /** The handshake's headers (for `socket.open`). */
  headers?: Headers;
  /** Which socket of the test (`s1`, `s2`…): one connection's entries share it. */
  connection: string;
  /** The socket mock's `id`, else its place (`scenario.sockets[0]`). */
  socketId: string;
  scenarioId?: string;
  variant?: string;
  layer?: 'test' | 'variant' | 'scenario' | 'default';
  protocol?: string;
  outsideTest?: true;
  /** For a frame: `sent` by the app (or page), `received` by it from the mock. */
  direction?: 'sent' | 'received';
  data?: string | Buffer;
  binary?: boolean;
  /** For a frame: the rule that answered it (`on[0]`), `onConnect`, or `test` for a frame the test pushed. */
  rule?: string;
  /** For a sent frame no rule matched: why each rule did not. */
  nearMisses?: string[];
  code?: number;
  reason?: string;
  /** For a close: who closed it (`app`, `mock`, `test`) or `error` for a dropped connection. */
  closedBy?: 'app' | 'mock' | 'test' | 'error';
}

export interface ReplyShape {
  /**
   * The reply a call with a streamed body gets: `reply` itself, or a copy of it for this call
   * (a reply may be shared by every call of its mock: never change it). Synchronous, as the
   * synchronous path calls it too.
   */
  stream(call: OutgoingCall, testId: string, mock: CompiledMock, reply: MockReply): MockReply;
}

/** When `take` is asked: before the scenario is looked up, or after no mock of it matched. */
export type TakeMoment = 'first' | 'unmatched';

export interface TakeStep {
  /** Synchronous, so that the common call pays no await: whether this test's calls are taken at `moment`. */
  wants(session: SessionSnapshot | undefined, moment: TakeMoment): boolean;
  /** The outcome of a call it takes (`undefined`: it leaves this one to the scenario after all). */
  take(call: OutgoingCall, testId: string, session: SessionSnapshot | undefined): Promise<CallOutcome | undefined>;
}

export interface LayerStep {
  /** The test's layers if ready without awaiting; `undefined` sends the call to the asynchronous path. */
  layersNow(testId: string, version: string, base: readonly MockIndex[]): readonly MockIndex[] | undefined;
  layers(testId: string, version: string, base: readonly MockIndex[]): Promise<readonly MockIndex[]>;
}

/** What a check made of one answered call: what the journal shows, and the failure the app gets instead of the reply, if any. */
export interface AnswerVerdict {
  violations: string[];
  failure?: HarnessError;
}

export interface AnswerCheck {
  /** `undefined`: the call is not one it judges. */
  check(call: OutgoingCall, testId: string, reply: MockReply): Promise<AnswerVerdict | undefined>;
  /** `check` without awaiting; `NOT_NOW` sends the call to the asynchronous path. */
  checkNow(call: OutgoingCall, testId: string, reply: MockReply): AnswerVerdict | undefined | typeof NOT_NOW;
}

/** An answered call, as it is recorded. */
export interface AnsweredCall {
  mock: CompiledMock;
  step: number | undefined;
  reply: MockReply;
  /** The scenario the test had selected (`undefined`: none, so `default`). */
  activeScenarioId: string | undefined;
  /** With `contracts`: the call's problems against its API document (`[]`: none); `undefined` for a call under no document's servers. */
  contractViolations?: string[];
}

export interface CallRecord {
  /** True when an answered call is recorded with the mocks that nearly matched it (the asynchronous path then). */
  readonly explainAnswered: boolean;
  /** Whether `answered` keeps `call` without awaiting (no body to read), so the synchronous path may answer it. */
  recordsNow(call: OutgoingCall): boolean;
  answered(testId: string, call: OutgoingCall, answer: AnsweredCall, startedAt: number, nearMisses?: string[]): Promise<void> | undefined;
  unanswered(testId: string, call: OutgoingCall, action: NonNullable<JournalEntry['unhandled']>, startedAt: number, nearMisses: string[]): Promise<void> | undefined;
  /** Keep one event of a socket a socket mock answers. */
  socket?(testId: string, event: SocketEvent): void;
}
