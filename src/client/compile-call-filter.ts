import { didYouMean } from '../core/did-you-mean.js';
import { compileBodyMatch, type BodyMatcher } from '../core/engine/body-match.js';
import { DefinitionError } from '../core/engine/definition-error.js';
import { describeValue } from '../core/engine/describe-value.js';
import { HarnessError } from '../core/errors.js';
import { filterCalls } from '../core/journal/filter-calls.js';
import { compileUrlFilter, urlFilterProblem } from '../core/journal/url-filter.js';
import type { JournalEntry, JournalFilter } from '../core/journal/journal-entry.js';
import { mockKeyOf } from './describe-call.js';

/**
 * Which recorded calls a verification is about: the journal's filters, and the request body.
 *
 * @example
 * { method: 'POST', url: '*\/v1/charges', body: { amount: 5000, metadata: { order: { startsWith: 'ord_' } } } }
 */
export interface CallFilter extends JournalFilter {
  /**
   * Partial deep match on the recorded request body, as a mock's `match.body` matches: listed
   * keys must match, others are ignored; leaves may be `StringMatch` objects or RegExps. In
   * form and multipart bodies, where every value is text, `5000` also matches `'5000'`.
   */
  body?: unknown;
}

/** A filter ready to test journal entries, and to say why an entry does not pass. */
export interface CompiledCallFilter {
  /** `POST *\/v1/charges with body {"amount":5000}`: the filter in words, for messages. */
  readonly description: string;
  /** The entries that pass, in their order. */
  select(entries: readonly JournalEntry[]): JournalEntry[];
  /** True when the entry has the filter's method and URL (or the filter names neither): a call worth explaining. */
  isNear(entry: JournalEntry): boolean;
  /** The first criterion `entry` fails, as `body.amount: expected 5000, received 4000`; `undefined` when it passes. */
  reasonFor(entry: JournalEntry): string | undefined;
  /**
   * The entries that pass every criterion but the body, whose body the journal cut at
   * `maxBodyBytes`: whether they match cannot be told, so a count of matches cannot be trusted.
   */
  unsure(entries: readonly JournalEntry[]): JournalEntry[];
}

const FILTER_KEYS = ['method', 'url', 'unanswered', 'mockId', 'body'];
/** Form and multipart fields are text: a number in the filter also matches its text, as in a mock's `match.body`. */
const TEXT_FIELDS = /application\/x-www-form-urlencoded|multipart\/form-data/i;

function fail(where: string, message: string): never {
  throw new HarnessError('INVALID_ARGUMENT', `Invalid call filter for ${where}: ${message}`);
}

function checkFilter(filter: unknown, where: string): asserts filter is CallFilter {
  if (typeof filter !== 'object' || filter === null || Array.isArray(filter)) fail(where, `expected an object such as { method: 'POST', url: '*/v1/charges' }, instead got ${describeValue(filter)}.`);
  for (const key of Object.keys(filter)) {
    if (FILTER_KEYS.includes(key)) continue;
    const near = didYouMean(key, FILTER_KEYS);
    fail(where, `"${key}" is not a filter${near === undefined ? '' : ` (did you mean "${near}"?)`}; use ${FILTER_KEYS.join(', ')}.`);
  }
  const { method, url, unanswered, mockId } = filter as Record<string, unknown>;
  for (const [name, value] of [['method', method], ['url', url], ['mockId', mockId]] as const) {
    if (value !== undefined && (typeof value !== 'string' || value === '')) fail(where, `expected "${name}" to be a non-empty string, instead got ${describeValue(value)}.`);
  }
  if (unanswered !== undefined && typeof unanswered !== 'boolean') fail(where, `expected "unanswered" to be true or false, instead got ${describeValue(unanswered)}.`);
  const problem = typeof url === 'string' ? urlFilterProblem(url) : undefined;
  if (problem !== undefined) fail(where, `${problem}.`);
}

/** A body pattern in words: JSON, with RegExps and matcher objects kept readable. */
function describeBody(body: unknown): string {
  return JSON.stringify(body, (_key, value: unknown) => (value instanceof RegExp ? String(value) : value)) ?? String(body);
}

/**
 * Check and compile a call filter (`where` names the method in errors: `expectCalled`). The
 * body is matched by the engine's own matcher, so a failed body reads as a near miss does:
 * `body.amount: expected 5000, received 4000`.
 */
export function compileCallFilter(filter: CallFilter, where: string): CompiledCallFilter {
  checkFilter(filter, where);
  const { body, ...journalFilter } = filter;
  let matcher: BodyMatcher | undefined;
  try {
    matcher = body === undefined ? undefined : compileBodyMatch(body, 'body');
  } catch (error) {
    const field = error instanceof DefinitionError ? `${error.field} ` : '';
    fail(where, `the body pattern is not valid: ${field}${(error as Error).message}`);
  }
  const method = filter.method?.toUpperCase();
  // Compiled once: `isNear` and `reasonFor` test every entry of the journal.
  const urlMatches = filter.url === undefined ? undefined : compileUrlFilter(filter.url);
  const sameUrl = (entry: JournalEntry) => urlMatches === undefined || urlMatches(entry.url);
  const bodyReason = (entry: JournalEntry): string | undefined => {
    if (matcher === undefined) return undefined;
    if (!('requestBody' in entry)) return 'body: the call has no body';
    const reason = matcher.explain(entry.requestBody, TEXT_FIELDS.test(entry.requestHeaders['content-type'] ?? ''));
    if (reason === undefined) return undefined;
    return entry.requestBodyTruncated === true ? `${reason} (the journal cut this body at journal.maxBodyBytes)` : reason;
  };

  const description = [
    `${method ?? 'any method'} ${filter.url ?? 'to any URL'}`,
    ...(filter.mockId === undefined ? [] : [`answered by mock "${filter.mockId}"`]),
    ...(filter.unanswered === true ? ['left unanswered'] : []),
    ...(body === undefined ? [] : [`with body ${describeBody(body)}`]),
  ].join(' ');

  return {
    description,
    select: (entries) => filterCalls(entries, journalFilter).filter((entry) => bodyReason(entry) === undefined),
    unsure: (entries) =>
      matcher === undefined ? [] : filterCalls(entries, journalFilter).filter((entry) => entry.requestBodyTruncated === true && bodyReason(entry) !== undefined),
    // With a URL in the filter, the calls to that URL; else, with a method, the calls of that method.
    isNear: (entry) => (filter.url !== undefined ? sameUrl(entry) : method === undefined || entry.method === method),
    reasonFor(entry) {
      if (!sameUrl(entry)) return `url: expected ${filter.url}, received ${entry.url}`;
      if (method !== undefined && entry.method !== method) return `method: expected ${method}, received ${entry.method}`;
      if (filter.unanswered === true && entry.answered) return `unanswered: expected a call no mock answered, received one answered by ${mockKeyOf(entry)}`;
      if (filter.mockId !== undefined && entry.mockId !== filter.mockId) {
        return `mockId: expected "${filter.mockId}", received ${entry.answered ? (entry.mockId === undefined ? `${mockKeyOf(entry)} (no id)` : `"${entry.mockId}"`) : 'an unanswered call'}`;
      }
      return bodyReason(entry);
    },
  };
}
