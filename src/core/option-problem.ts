import { HarnessError } from './errors.js';

/** A value as an option's error message names it: `null`, `an array`, `42`, `"text"`, or its type. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number') return String(value);
  return typeof value === 'string' ? JSON.stringify(value) : typeof value;
}

/** Refuse `createHarness`'s options: `INVALID_OPTIONS`, with what is wrong and how to fix it. */
export function failOptions(message: string): never {
  throw new HarnessError('INVALID_OPTIONS', `Invalid createHarness options: ${message}`);
}
