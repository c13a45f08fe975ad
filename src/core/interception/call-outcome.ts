import type { CaptureHandle } from '../recording/capture.js';
import type { MockReply } from './mock-reply.js';
import type { OutgoingCall } from './outgoing-call.js';

/** What happens to an intercepted call: answered by a mock, passed on to the real network, or failed. */
export type CallOutcome =
  | { kind: 'reply'; reply: MockReply }
  /** `capture`: the test records this call; the layer reports the upstream's response to it. */
  | { kind: 'pass'; capture?: CaptureHandle }
  | { kind: 'fail'; error: Error };

export const PASS: CallOutcome = Object.freeze({ kind: 'pass' });

/** What one started harness does with intercepted calls. */
export interface CallListener {
  /** This harness's answer, or `undefined` when none of its mocks matches (the next harness is asked). */
  answer(call: OutgoingCall): Promise<CallOutcome | undefined>;
  /** Asked of the most recently started harness when no harness answered: pass or fail (`unhandled`). */
  unanswered(call: OutgoingCall): Promise<CallOutcome>;
  /** True when a connection this harness did not answer must never leave the machine (`unhandled: 'error'`). */
  readonly blocksNetwork: boolean;
  /** Host patterns that may be reached directly even when `blocksNetwork` (`allowHosts`). */
  isAllowedHost(hostname: string, port: number | undefined): boolean;
  /** Hosts whose calls carry the current test ID (`propagate.hosts`). */
  propagatesTo(url: URL): boolean;
  /** Where the layers report trouble (a replaced dispatcher, a blocked socket). */
  readonly logger: { warn(message: string): void; error(message: string, error?: unknown): void };
}
