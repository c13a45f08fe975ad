const HARNESS_ERROR_BRAND = Symbol.for('scenario-harness.error');

/** Stable codes callers can branch on. */
export type HarnessErrorCode =
  | 'INVALID_OPTIONS'
  | 'INVALID_SCENARIOS'
  | 'UNKNOWN_SCENARIO'
  | 'INVALID_ARGUMENT'
  | 'INVALID_TEST_ID'
  | 'INTERCEPTION_FAILED'
  /** The app runs on a Node.js older than the package supports (22.12). */
  | 'UNSUPPORTED_RUNTIME'
  | 'NOT_STARTED'
  | 'STORE_UNAVAILABLE'
  /** An outgoing call no mock answers, failed because of `unhandled: 'error'`. */
  | 'UNHANDLED_CALL'
  /** A response function threw, or returned something that is not a response. */
  | 'RESPONSE_FUNCTION_FAILED'
  /** A recorded or imported scenario still holds a secret value: nothing was written. */
  | 'SECRET_LEAK'
  /** A call under an API document's servers broke its contract, with `contracts: { onViolation: 'error' }`. */
  | 'CONTRACT_VIOLATION';

/**
 * The one error type scenario-harness throws for anything a user can cause.
 *
 * @example
 * try { await harness.switchScenario('t-1', 'nope') }
 * catch (error) { if (isHarnessError(error) && error.code === 'UNKNOWN_SCENARIO') ... }
 */
export class HarnessError extends Error {
  readonly code: HarnessErrorCode;
  readonly [HARNESS_ERROR_BRAND] = true;

  constructor(code: HarnessErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'HarnessError';
    this.code = code;
  }
}

/**
 * True for a `HarnessError`, also one thrown by another copy of this package
 * (a brand check, because duplicated module copies break `instanceof`).
 */
export function isHarnessError(value: unknown): value is HarnessError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[HARNESS_ERROR_BRAND] === true;
}
