import type { SessionStore } from './store/session-store.js';
import type { Logger } from './dev-utils.js';

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

/** One answer a mock gives. Strings in `headers` and `body` may contain templates (`{{params.id}}`). */
export interface MockResponse {
  /** @default 200 */
  status?: number;
  headers?: Record<string, string>;
  /** An object or array is sent as JSON; a string as text (unless `headers` sets a content type). */
  body?: unknown;
  /** Milliseconds to wait before answering. */
  delay?: number;
  /** `'network'` fails the call the way an unreachable server does. */
  error?: 'network';
}

export interface MockMatch {
  /** Partial deep match on the JSON body; leaves may be `StringMatch` objects. */
  body?: unknown;
  query?: Record<string, StringMatch>;
  /** Header names are compared case-insensitively. */
  headers?: Record<string, StringMatch>;
  /** The test's state must hold these values (deep equality). */
  state?: Record<string, unknown>;
}

export interface MockSequence {
  responses: MockResponse[];
  /**
   * What happens once every response was served: `'last'` repeats the last one, `'cycle'`
   * starts over, `'none'` stops matching so the next candidate answers.
   * @default 'last'
   */
  repeat?: 'last' | 'cycle' | 'none';
}

/** One mocked endpoint of an external API. Exactly one of `response` and `sequence`. */
export interface Mock {
  /** Omitted: any method. */
  method?: HttpMethod | HttpMethod[];
  /**
   * `'https://api.x.com/users/:id'`, `'/v1/charges'`, `'*\/v1/charges'`, `'https://api.x.com/*'`, or a
   * RegExp tested against the whole URL (in files: `{ regex: { source, flags? } }`).
   */
  url: string | RegExp | { regex: { source: string; flags?: string } };
  match?: MockMatch;
  response?: MockResponse;
  sequence?: MockSequence;
  /** After answering, merge these keys into the test's state (`'items[]'` appends). */
  afterResponse?: { setState: Record<string, unknown> };
}

export interface ScenarioVariant {
  /** Mocks laid over the scenario's own while this variant is active. */
  mocks: Mock[];
}

export interface ScenarioDefinition {
  /** Human-readable; returned as `scenarioName` by the GET endpoint. */
  name: string;
  description?: string;
  mocks: Mock[];
  variants?: Record<string, ScenarioVariant>;
}

/** Scenario ID → definition. `default` answers for tests that selected nothing, and backs every other scenario. */
export type ScenarioMap = Record<string, ScenarioDefinition>;

/** Paths of the control endpoints (SPEC §1). */
export interface HarnessEndpoints {
  /** @default '/__scenario__' */
  setScenario?: string;
  /** @default '/__scenario__' */
  getScenario?: string;
  /** @default '/__harness__/state' */
  getState?: string;
}

/** What happens to an intercepted call that no mock answers (loopback calls always go through). */
export type UnhandledCallStrategy =
  | 'bypass'
  | 'warn'
  | 'error'
  | ((request: Request, context: UnhandledCallContext) => void);

export interface UnhandledCallContext {
  testId: string;
  scenarioId: string;
  /** One line per mock that came close, saying why it did not answer. */
  nearMisses: string[];
}

/** Bounds on what a harness accepts from the outside. */
export interface HarnessLimits {
  /**
   * Largest control request body, in bytes; a larger one is answered 413
   * `{ "error": "Request body too large" }`; the rest of the body is read and dropped, never buffered.
   * @default 65536
   */
  maxBodyBytes?: number;
  /**
   * Longest test ID, in characters. A longer `x-harness-test-id` is a 400 on the control
   * endpoints; on any other request it is ignored (the request runs as `default-test`) and
   * logged once. The programmatic API throws `INVALID_TEST_ID` for it.
   * @default 256
   */
  maxTestIdLength?: number;
}

export interface HarnessOptions<S extends ScenarioMap = ScenarioMap> {
  /** When false nothing is intercepted, no header is read and control paths reach the app (SPEC §5). */
  enabled: boolean;
  scenarios: S;
  endpoints?: HarnessEndpoints;
  /** @default 'warn' */
  unhandled?: UnhandledCallStrategy;
  /** Where sessions live. @default an in-memory store */
  store?: SessionStore;
  /** Where warnings and errors are written. @default console, prefixed `[scenario-harness]` */
  logger?: Logger;
  /** Size limits on control requests and test IDs; each field has its own default. */
  limits?: HarnessLimits;
}

/** The scenario (and variant) a test has selected. */
export interface ActiveScenario {
  scenarioId: string;
  variant?: string;
}
