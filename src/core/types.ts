import type { SocketMock } from './types/socket-types.js';
import type { LlmResponse, MockStream } from './types/stream-types.js';

export type * from './types/stream-types.js';
export type * from './types/socket-types.js';
export type * from './types/harness-options.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';

/**
 * How a string is compared: a plain string means equals; a RegExp or `{ regex }` tests it;
 * the object forms say what they do.
 */
export type StringMatch =
  | string
  | RegExp
  | { equals: string }
  | { contains: string }
  | { startsWith: string }
  | { endsWith: string }
  | { regex: { source: string; flags?: string } };

/** The faults a mock can answer with instead of a response. */
export type MockFault = 'network' | 'reset' | 'timeout' | 'malformed';

/** One answer a mock gives. Strings in `headers` and `body` may contain templates (`{{params.id}}`). */
export interface MockResponse {
  /** @default 200 */
  status?: number;
  headers?: Record<string, string>;
  /** An object or array is sent as JSON; a string as text (unless `headers` sets a content type). */
  body?: unknown;
  /** A binary body, base64-encoded (images, PDFs, protobuf); sent as `application/octet-stream` unless `headers` says otherwise. */
  bodyBase64?: string;
  /** A body sent in chunks or as Server-Sent Events, with a pause between them (LLM streaming, slow downloads). */
  stream?: MockStream;
  /**
   * An LLM provider's answer from plain data: the harness writes the provider's own wire format,
   * a stream when the request asks for one (`"stream": true`, `:streamGenerateContent`), else its JSON.
   * Exclusive with `body`, `bodyBase64` and `stream`.
   * @see https://github.com/scenario-harness/scenario-harness/blob/main/docs/mock-format.md#llm-answers
   */
  llm?: LlmResponse;
  /** Milliseconds to wait before answering. */
  delay?: number;
  /**
   * A fault instead of an answer: `'network'` fails the call as an unreachable server does
   * (connection refused); `'reset'` as a connection reset by the server (ECONNRESET);
   * `'timeout'` never answers, so the call hangs until the client gives up (its timeout or
   * AbortSignal); `'malformed'` sends the status and headers, then half of the body, then drops
   * the connection (a truncated, unparseable body).
   */
  error?: MockFault;
}

/**
 * Matches a GraphQL-over-HTTP call: a POST with a JSON body `{ query, operationName?, variables? }`
 * (or a batch: an array of them, matched when any one matches), an `application/graphql` body,
 * or a GET with `?query=…&operationName=…&variables=<JSON>`.
 * @see https://github.com/scenario-harness/scenario-harness/blob/main/docs/request-bodies.md#graphql
 */
export interface GraphqlMatch {
  /** The request's `operationName`, or else the name of the single operation in its `query`. */
  operationName?: StringMatch;
  /** Partial deep match on the operation's variables, as `match.body` matches a body. */
  variables?: Record<string, unknown>;
}

/** What a response function gets besides the call's `Request`. */
export interface MockResponseContext {
  testId: string;
  /** The scenario whose mock answers. */
  scenarioId: string;
  /** The test's active variant, if any. */
  variant: string | undefined;
  /** URL pattern parameters (`:id`). */
  params: Readonly<Record<string, string>>;
  /** The test's state, as the call read it. */
  state: Readonly<Record<string, unknown>>;
}

/**
 * In code-defined scenarios, a response may be a function: an escape hatch for what templates
 * cannot express. It runs per call, with the same test ID, state and sequence rules; what it
 * returns is checked like a written response. Scenario files hold data only.
 */
export type MockResponseFunction = (request: Request, context: MockResponseContext) => MockResponse | Promise<MockResponse>;

export interface MockMatch {
  /**
   * Partial deep match on the parsed body (JSON; form and multipart fields; else the text);
   * leaves may be `StringMatch` objects. In form and multipart fields, where every value is
   * text, a number or boolean also matches its text (`5000` matches `'5000'`).
   */
  body?: unknown;
  /** The call is a GraphQL operation with this name and these variables. */
  graphql?: GraphqlMatch;
  query?: Record<string, StringMatch>;
  /** Header names are compared case-insensitively. */
  headers?: Record<string, StringMatch>;
  /** The test's state must hold these values (deep equality). */
  state?: Record<string, unknown>;
}

export interface MockSequence {
  responses: (MockResponse | MockResponseFunction)[];
  /**
   * What happens once every response was served: `'last'` repeats the last one, `'cycle'`
   * starts over, `'none'` stops matching so the next candidate answers.
   * @default 'last'
   */
  repeat?: 'last' | 'cycle' | 'none';
}

/** One mocked endpoint of an external API. Exactly one of `response` and `sequence`. */
export interface Mock {
  /** A name for the mock, unique in its scenario (or variant): shown in the journal, near misses and verification. */
  id?: string;
  /** Omitted: any method. */
  method?: HttpMethod | HttpMethod[];
  /**
   * `'https://api.x.com/users/:id'`, `'/v1/charges'`, `'*\/v1/charges'`, `'https://api.x.com/*'`, or a
   * RegExp tested against the whole URL (in files: `{ regex: { source, flags? } }`).
   */
  url: string | RegExp | { regex: { source: string; flags?: string } };
  match?: MockMatch;
  response?: MockResponse | MockResponseFunction;
  sequence?: MockSequence;
  /** After answering, merge these keys into the test's state (`'items[]'` appends). */
  afterResponse?: { setState: Record<string, unknown> };
}

export interface ScenarioVariant {
  /** Mocks laid over the scenario's own while this variant is active. */
  mocks: Mock[];
  /** Socket mocks laid over the scenario's own while this variant is active. */
  sockets?: SocketMock[];
}

export interface ScenarioDefinition {
  /** Human-readable; returned as `scenarioName` by the GET endpoint. */
  name: string;
  description?: string;
  mocks: Mock[];
  /** The WebSockets this scenario answers (see `SocketMock`). */
  sockets?: SocketMock[];
  variants?: Record<string, ScenarioVariant>;
}

/** Scenario ID → definition. `default` answers for tests that selected nothing, and backs every other scenario. */
export type ScenarioMap = Record<string, ScenarioDefinition>;

/** One entry of the scenario catalogue (`GET /__harness__/scenarios`). */
export interface ScenarioSummary {
  id: string;
  name: string;
  description?: string;
  /** The declared variants' names (`[]` when none). */
  variants: string[];
}

/** The scenario (and variant) a test has selected. */
export interface ActiveScenario {
  scenarioId: string;
  variant?: string;
}
