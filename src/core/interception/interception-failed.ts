import { HarnessError } from '../errors.js';

/** The error `harness.start()` throws when a layer cannot be installed: outgoing calls would reach the network. */
export function interceptionFailed(reason: string, remedy: string, cause?: unknown): HarnessError {
  return new HarnessError(
    'INTERCEPTION_FAILED',
    `Failed to start intercepting outgoing calls: ${reason}. Outgoing calls would reach the real network, so the harness refuses to start. ${remedy}`,
    { cause },
  );
}
