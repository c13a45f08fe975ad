import { HarnessError } from '../errors.js';
import type { Mock } from '../types.js';

/** `mocks[0].sequence.responses[1]`: a place in the list, as the app's 400 names fields too. */
function fieldOf(path: readonly (string | number)[]): string {
  return path.reduce<string>((out, segment) => (typeof segment === 'number' ? `${out}[${segment}]` : `${out}.${segment}`), 'mocks');
}

/** A copy of `value` as data: RegExps in their file form, `{ regex: { source, flags } }`; a function is refused by `refuse`. */
function toData(value: unknown, path: (string | number)[], refuse: (field: string) => string): unknown {
  if (typeof value === 'function') throw new HarnessError('INVALID_ARGUMENT', refuse(fieldOf(path)));
  if (value instanceof RegExp) return { regex: value.flags === '' ? { source: value.source } : { source: value.source, flags: value.flags } };
  if (Array.isArray(value)) return value.map((item, i) => toData(item, [...path, i], refuse));
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, toData(item, [...path, key], refuse)]));
  return value;
}

/**
 * Mocks as JSON can carry them (the body of `POST /__harness__/mocks`, a Redis hash): the same
 * `Mock` type as a scenario's, RegExps in their data form. A response function has no data form:
 * `refuse` says why, given the field (`mocks[0].response`), and it is thrown as `INVALID_ARGUMENT`.
 */
export function toPlainMocks(mocks: readonly Mock[], refuse: (field: string) => string): unknown[] {
  return mocks.map((mock, i) => toData(mock, [i], refuse));
}
