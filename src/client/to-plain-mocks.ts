import { HarnessError } from '../core/errors.js';
import type { Mock } from '../core/types.js';

/** `mocks[0].sequence.responses[1]`: a place in the list, as the app's 400 names fields too. */
function fieldOf(path: readonly (string | number)[]): string {
  return path.reduce<string>((out, segment) => (typeof segment === 'number' ? `${out}[${segment}]` : `${out}.${segment}`), 'mocks');
}

/** A copy of `value` as data: RegExps in their file form, `{ regex: { source, flags } }`; throws at a function. */
function toData(value: unknown, path: (string | number)[]): unknown {
  if (typeof value === 'function') {
    throw new HarnessError(
      'INVALID_ARGUMENT',
      `Failed to send the test's mocks: ${fieldOf(path)} is a function. Mocks travel to the app as JSON, so a response function runs only when the app's own code adds it (harness.useMocks(testId, mocks) in the app's process); from a test, give the response as data (templates such as "{{params.id}}" and sequences cover most per-call answers).`,
    );
  }
  if (value instanceof RegExp) return { regex: value.flags === '' ? { source: value.source } : { source: value.source, flags: value.flags } };
  if (Array.isArray(value)) return value.map((item, i) => toData(item, [...path, i]));
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, toData(item, [...path, key])]));
  return value;
}

/**
 * The mocks as the body of `POST /__harness__/mocks` carries them: the same `Mock` type as a
 * scenario's (so a typo is a compile error), sent as data.
 */
export function toPlainMocks(mocks: readonly Mock[]): unknown[] {
  return mocks.map((mock, i) => toData(mock, [i]));
}
