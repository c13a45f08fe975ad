import { HarnessError } from '../errors.js';

/** Throws `INVALID_TEST_ID` for what `harness.<method>()` cannot take as a test ID: not a string, empty, or over `maxLength`. */
export function assertTestId(testId: unknown, method: string, maxLength: number): asserts testId is string {
  if (typeof testId !== 'string' || testId === '') {
    throw new HarnessError('INVALID_TEST_ID', `Expected a non-empty test ID as the first argument of harness.${method}(), instead got ${JSON.stringify(testId)}.`);
  }
  if (testId.length > maxLength) {
    throw new HarnessError(
      'INVALID_TEST_ID',
      `Expected a test ID of at most ${maxLength} characters (limits.maxTestIdLength) as the first argument of harness.${method}(), instead got one of ${testId.length}. Use a shorter test ID, such as a UUID.`,
    );
  }
}
