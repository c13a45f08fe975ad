import { isDeepStrictEqual } from 'node:util';
import type { SequenceRepeat, StateChange, TestState } from '../store/session-store.js';
import type { Mock, MockFault, MockResponse, MockResponseFunction, StringMatch } from '../types.js';
import { describeStringMatch, describeValue, mismatch } from './describe-value.js';
import { compileBodyMatch, type BodyMatcher } from './body-match.js';
import type { MockReply } from '../interception/mock-reply.js';
import type { BodyFormat } from './body/parse-request-body.js';
import { precomputeReply, precomputeResponseParts } from './build-response.js';
import { compileGraphqlMatch, type GraphqlMatcher } from './graphql-match.js';
import { compileStream, streamReadsBody, type CompiledStream } from './stream-body.js';
import { compileStringMatch, isStringMatcherObject, type StringPredicate } from './string-match.js';
import { compileTemplate, type CompiledValue, type TemplateContext } from './template.js';
import { compileUrlPattern, type UrlPattern } from './url-pattern.js';
import { compileLlm, type CompiledLlm } from './llm/compile-llm.js';

/** A response with its templates compiled. */
export interface CompiledResponse {
  status: number;
  headers: readonly (readonly [string, CompiledValue])[];
  body: CompiledValue | undefined;
  delay: number;
  /** A fault instead of an answer (`error`). */
  fault: MockFault | undefined;
  /** Body text and headers built at creation when no template makes them depend on the call. */
  fixed: { text: string | null; headers: Record<string, string> } | undefined;
  /** The whole reply, when `fixed` makes it the same for every call. */
  fixedReply: MockReply | undefined;
  /** A response function (code-defined scenarios): run per call, its result compiled then. */
  dynamic: MockResponseFunction | undefined;
  /** `bodyBase64`, decoded. */
  binary: Uint8Array | undefined;
  stream: CompiledStream | undefined;
  /** `llm`: a provider's answer, rendered per call (the request decides between stream and JSON). */
  llm: CompiledLlm | undefined;
}

/** What the non-URL criteria of a mock look at. */
export interface MatchInput {
  url: URL;
  headers: Headers;
  state: TestState;
  /** The parsed body's value; only present when some candidate matches on it. */
  body: unknown;
  /** Which parser read `body` (`form` and `multipart` fields are text: see `BodyMatcher`). */
  bodyFormat?: BodyFormat;
  /** The body as text, whatever its content type: what a top-level string matcher on `match.body` tests. */
  bodyText?: string | undefined;
}

/** A mock ready to be matched: everything parsed, every pattern built. */
export interface CompiledMock {
  /** Position within its layer: ties in specificity (match keys, then `url.rank`) go to the lower one. */
  order: number;
  /** `"<scenario>#<i>"` or `"<scenario>~<variant>#<i>"`: the mock's identity, and its sequence counter's key. */
  key: string;
  methods: ReadonlySet<string> | undefined;
  url: UrlPattern;
  /** How many criteria `match` lists: more beat fewer, whatever the URLs (`url.rank` only breaks a tie). */
  specificity: number;
  /** True when matching or answering reads the request body. */
  needsBody: boolean;
  /** The first `match` criterion that does not hold, as `match.query.page: missing (expected "2")`. */
  explainMiss(input: MatchInput): string | undefined;
  /** The scenario the mock belongs to, and the variant when it is in a variant's overlay. */
  scenarioId: string;
  variant: string | undefined;
  /** True for a mock a test added for itself (`POST /__harness__/mocks`): its journal layer is `'test'`. */
  own: boolean;
  /** The mock's own name (`id` in its definition), for the journal and verification. */
  id: string | undefined;
  /** The `match` criteria (not URL and method); `undefined` when there are none. */
  matches: ((input: MatchInput) => boolean) | undefined;
  responses: readonly CompiledResponse[];
  repeat: SequenceRepeat | undefined;
  setState: readonly { key: string; append: boolean; value: CompiledValue }[] | undefined;
  /** `GET https://api.x.com/users/:id`, for messages. */
  label: string;
}

/**
 * A written response, or a response function's result (each call), compiled. `requestBody`: the
 * call's parsed body, which a function's `llm` answer reads (see `CompiledLlm.requestBody`);
 * `streamId`: the name its stream goes by (`ReplyStream.id`).
 */
export function compileResponse(response: MockResponse | MockResponseFunction, field: string, requestBody?: unknown, streamId?: string): CompiledResponse {
  if (typeof response === 'function') return { ...compileResponse({}, field), fixed: undefined, fixedReply: undefined, dynamic: response };
  const headers = Object.entries(response.headers ?? {}).map(([name, value]) => [name, compileTemplate(value, `${field}.headers.${name}`)] as const);
  const body = response.body === undefined ? undefined : compileTemplate(response.body, `${field}.body`);
  const compiled = {
    status: response.status ?? 200,
    headers,
    body,
    delay: response.delay ?? 0,
    fault: response.error,
    fixed: precomputeResponseParts({ headers, body }),
    binary: response.bodyBase64 === undefined ? undefined : new Uint8Array(Buffer.from(response.bodyBase64, 'base64')),
    stream: response.stream === undefined ? undefined : compileStream(response.stream, `${field}.stream`, streamId),
    llm: response.llm === undefined ? undefined : compileLlm(response.llm, `${field}.llm`, requestBody, streamId),
  };
  return { ...compiled, fixedReply: precomputeReply(compiled), dynamic: undefined };
}

function compileStringMatches(record: Record<string, StringMatch>, field: string, lowerCaseNames: boolean) {
  return Object.entries(record).map(
    ([name, match]) => [lowerCaseNames ? name.toLowerCase() : name, compileStringMatch(match, `${field}.${name}`), match] as [string, StringPredicate, StringMatch],
  );
}

/** A mock's URL as people write it: the pattern, or `/source/flags` for a RegExp in either form. */
function urlLabel(url: Mock['url']): string {
  if (typeof url === 'string') return url;
  return url instanceof RegExp ? String(url) : `/${url.regex.source}/${url.regex.flags ?? ''}`;
}

/** Compile one validated mock. Throws `DefinitionError` naming the field that is wrong. */
export function compileMock(mock: Mock, order: number, key: string, owner: { scenarioId: string; variant?: string | undefined; own?: boolean } = { scenarioId: '' }): CompiledMock {
  const url = compileUrlPattern(mock.url);
  const methods = mock.method === undefined ? undefined : new Set((Array.isArray(mock.method) ? mock.method : [mock.method]).map((m) => m.toUpperCase()));

  const query = mock.match?.query ? compileStringMatches(mock.match.query, 'match.query', false) : [];
  const headers = mock.match?.headers ? compileStringMatches(mock.match.headers, 'match.headers', true) : [];
  const state = Object.entries(mock.match?.state ?? {});
  const body: BodyMatcher | undefined = mock.match && 'body' in mock.match ? compileBodyMatch(mock.match.body, 'match.body') : undefined;
  const graphql: GraphqlMatcher | undefined = mock.match?.graphql ? compileGraphqlMatch(mock.match.graphql, 'match.graphql') : undefined;

  // Each criterion can say why it did not hold: the near-miss text of an unanswered call.
  const criteria: { test(input: MatchInput): boolean; explain(input: MatchInput): string }[] = [];
  for (const [name, test, raw] of query) {
    const wants = describeStringMatch(raw);
    const read = ({ url }: MatchInput) => url.searchParams.get(name) ?? undefined;
    criteria.push({ test: (input) => { const v = read(input); return v !== undefined && test(v); }, explain: (input) => mismatch(`match.query.${name}`, wants, read(input)) });
  }
  for (const [name, test, raw] of headers) {
    const wants = describeStringMatch(raw);
    const read = ({ headers }: MatchInput) => headers.get(name) ?? undefined;
    criteria.push({ test: (input) => { const v = read(input); return v !== undefined && test(v); }, explain: (input) => mismatch(`match.headers.${name}`, wants, read(input)) });
  }
  for (const [name, expected] of state) {
    const test = ({ state }: MatchInput) => Object.hasOwn(state, name) && isDeepStrictEqual(state[name], expected);
    criteria.push({ test, explain: ({ state }) => mismatch(`match.state.${name}`, describeValue(expected), Object.hasOwn(state, name) ? state[name] : undefined) });
  }
  if (body && mock.match !== undefined && (mock.match.body instanceof RegExp || isStringMatcherObject(mock.match.body))) {
    // @note A string matcher on the whole body (`{ contains: 'currency=gbp' }`) tests the body's
    // text for every content type, as WireMock's body patterns do: a form or JSON body is parsed
    // for field matchers, which made it an object this matcher could never match.
    const raw = (input: MatchInput) => input.bodyText ?? input.body;
    criteria.push({
      test: (input) => body.test(raw(input)),
      explain: (input) => (input.body === undefined ? 'match.body: the call has no body' : (body.explain(raw(input)) ?? 'match.body: did not match')),
    });
  } else if (body) {
    const text = (input: MatchInput) => input.bodyFormat === 'form' || input.bodyFormat === 'multipart';
    criteria.push({
      test: (input) => body.test(input.body, text(input)),
      explain: (input) => (input.body === undefined ? 'match.body: the call has no body' : (body.explain(input.body, text(input)) ?? 'match.body: did not match')),
    });
  }
  if (graphql) criteria.push({ test: (input) => graphql.test(input), explain: (input) => graphql.explain(input) ?? 'match.graphql: did not match' });

  const label = `${methods ? [...methods].join('|') : 'ANY'} ${urlLabel(mock.url)}`;
  // A stream goes by its mock's id, else by the mock as `mockName` names it without one.
  const streamId = mock.id ?? `${label} (${key})`;
  const responses = mock.sequence
    ? mock.sequence.responses.map((response, i) => compileResponse(response, `sequence.responses[${i}]`, undefined, streamId))
    : [compileResponse(mock.response ?? {}, 'response', undefined, streamId)];
  const setState = mock.afterResponse
    ? Object.entries(mock.afterResponse.setState).map(([name, value]) => {
        const append = name.endsWith('[]');
        return { key: append ? name.slice(0, -2) : name, append, value: compileTemplate(value, `afterResponse.setState.${name}`) };
      })
    : undefined;

  const readsBody =
    // An `llm` answer reads the body for its streaming flag and model.
    responses.some((r) => r.body?.readsBody || r.llm !== undefined || streamReadsBody(r.stream) || r.headers.some(([, v]) => v.readsBody)) || (setState?.some((s) => s.value.readsBody) ?? false);

  return {
    order,
    key,
    methods,
    url,
    specificity: query.length + headers.length + state.length + (body?.leaves ?? 0) + (graphql?.leaves ?? 0),
    needsBody: body !== undefined || graphql !== undefined || readsBody,
    matches: criteria.length === 0 ? undefined : (input) => criteria.every((criterion) => criterion.test(input)),
    scenarioId: owner.scenarioId,
    variant: owner.variant,
    own: owner.own === true,
    explainMiss: (input) => criteria.find((criterion) => !criterion.test(input))?.explain(input),
    id: mock.id,
    responses,
    repeat: mock.sequence ? (mock.sequence.repeat ?? 'last') : undefined,
    setState,
    label,
  };
}

/** The state changes a mock's `afterResponse.setState` makes for this call. */
export function evaluateStateChanges(mock: CompiledMock, context: TemplateContext): StateChange[] {
  return (mock.setState ?? []).map(({ key, append, value }) => ({ key, append, value: value.evaluate(context) }));
}
