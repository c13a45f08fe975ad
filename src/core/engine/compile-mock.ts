import { isDeepStrictEqual } from 'node:util';
import type { SequenceRepeat, StateChange, TestState } from '../store/session-store.js';
import type { Mock, MockResponse } from '../types.js';
import { compileBodyMatch, type BodyMatcher } from './body-match.js';
import { precomputeResponseParts } from './build-response.js';
import { compileStringMatch, type StringPredicate } from './string-match.js';
import { compileTemplate, type CompiledValue, type TemplateContext } from './template.js';
import { compileUrlPattern, type UrlPattern } from './url-pattern.js';

/** A response with its templates compiled. */
export interface CompiledResponse {
  status: number;
  headers: readonly (readonly [string, CompiledValue])[];
  body: CompiledValue | undefined;
  delay: number;
  networkError: boolean;
  /** Body text and headers built at creation when no template makes them depend on the call. */
  fixed: { text: string | null; headers: Record<string, string> } | undefined;
}

/** What the non-URL criteria of a mock look at. */
export interface MatchInput {
  url: URL;
  headers: Headers;
  state: TestState;
  /** The parsed body; only present when some candidate matches on it. */
  body: unknown;
}

/** A mock ready to be matched: everything parsed, every pattern built. */
export interface CompiledMock {
  /** Position within its layer: ties in specificity go to the lower one. */
  order: number;
  /** `"<scenario>#<i>"` or `"<scenario>~<variant>#<i>"`: the mock's identity, and its sequence counter's key. */
  key: string;
  methods: ReadonlySet<string> | undefined;
  url: UrlPattern;
  /** How many criteria `match` lists: more beat fewer. */
  specificity: number;
  /** True when matching or answering reads the request body. */
  needsBody: boolean;
  /** The `match` criteria (not URL and method); `undefined` when there are none. */
  matches: ((input: MatchInput) => boolean) | undefined;
  responses: readonly CompiledResponse[];
  repeat: SequenceRepeat | undefined;
  setState: readonly { key: string; append: boolean; value: CompiledValue }[] | undefined;
  /** `GET https://api.x.com/users/:id`, for messages. */
  label: string;
}

function compileResponse(response: MockResponse, field: string): CompiledResponse {
  const headers = Object.entries(response.headers ?? {}).map(([name, value]) => [name, compileTemplate(value, `${field}.headers.${name}`)] as const);
  const body = response.body === undefined ? undefined : compileTemplate(response.body, `${field}.body`);
  return {
    status: response.status ?? 200,
    headers,
    body,
    delay: response.delay ?? 0,
    networkError: response.error === 'network',
    fixed: precomputeResponseParts({ headers, body }),
  };
}

function compileStringMatches(record: Record<string, Parameters<typeof compileStringMatch>[0]>, field: string, lowerCaseNames: boolean) {
  return Object.entries(record).map(
    ([name, match]) => [lowerCaseNames ? name.toLowerCase() : name, compileStringMatch(match, `${field}.${name}`)] as [string, StringPredicate],
  );
}

/** A mock's URL as people write it: the pattern, or `/source/flags` for a RegExp in either form. */
function urlLabel(url: Mock['url']): string {
  if (typeof url === 'string') return url;
  return url instanceof RegExp ? String(url) : `/${url.regex.source}/${url.regex.flags ?? ''}`;
}

/** Compile one validated mock. Throws `DefinitionError` naming the field that is wrong. */
export function compileMock(mock: Mock, order: number, key: string): CompiledMock {
  const url = compileUrlPattern(mock.url);
  const methods = mock.method === undefined ? undefined : new Set((Array.isArray(mock.method) ? mock.method : [mock.method]).map((m) => m.toUpperCase()));

  const query = mock.match?.query ? compileStringMatches(mock.match.query, 'match.query', false) : [];
  const headers = mock.match?.headers ? compileStringMatches(mock.match.headers, 'match.headers', true) : [];
  const state = Object.entries(mock.match?.state ?? {});
  const body: BodyMatcher | undefined = mock.match && 'body' in mock.match ? compileBodyMatch(mock.match.body, 'match.body') : undefined;

  const criteria: ((input: MatchInput) => boolean)[] = [];
  for (const [name, test] of query) criteria.push(({ url }) => { const v = url.searchParams.get(name); return v !== null && test(v); });
  for (const [name, test] of headers) criteria.push(({ headers }) => { const v = headers.get(name); return v !== null && test(v); });
  for (const [name, expected] of state) criteria.push(({ state }) => Object.hasOwn(state, name) && isDeepStrictEqual(state[name], expected));
  if (body) criteria.push((input) => body.test(input.body));

  const responses = mock.sequence
    ? mock.sequence.responses.map((response, i) => compileResponse(response, `sequence.responses[${i}]`))
    : [compileResponse(mock.response ?? {}, 'response')];
  const setState = mock.afterResponse
    ? Object.entries(mock.afterResponse.setState).map(([name, value]) => {
        const append = name.endsWith('[]');
        return { key: append ? name.slice(0, -2) : name, append, value: compileTemplate(value, `afterResponse.setState.${name}`) };
      })
    : undefined;

  const readsBody =
    responses.some((r) => r.body?.readsBody || r.headers.some(([, v]) => v.readsBody)) || (setState?.some((s) => s.value.readsBody) ?? false);

  return {
    order,
    key,
    methods,
    url,
    specificity: query.length + headers.length + state.length + (body?.leaves ?? 0),
    needsBody: body !== undefined || readsBody,
    matches: criteria.length === 0 ? undefined : (input) => criteria.every((test) => test(input)),
    responses,
    repeat: mock.sequence ? (mock.sequence.repeat ?? 'last') : undefined,
    setState,
    label: `${methods ? [...methods].join('|') : 'ANY'} ${urlLabel(mock.url)}`,
  };
}

/** The state changes a mock's `afterResponse.setState` makes for this call. */
export function evaluateStateChanges(mock: CompiledMock, context: TemplateContext): StateChange[] {
  return (mock.setState ?? []).map(({ key, append, value }) => ({ key, append, value: value.evaluate(context) }));
}
