import type { ContractsOptions } from '../contract-check.js';
import type { Logger } from '../dev-utils.js';
import type { JournalOptions } from '../journal/journal-entry.js';
import type { RecordingOptions } from '../recording/recording-draft.js';
import type { SessionStore } from '../store/session-store.js';
import type { ScenarioMap } from '../types.js';

/*
 * What `createHarness` takes: its options, endpoints, limits, access and control settings.
 * Re-exported by types.ts.
 */

/** Paths of the control endpoints (SPEC §1). */
export interface HarnessEndpoints {
  /** @default '/__scenario__' */
  setScenario?: string;
  /** @default '/__scenario__' */
  getScenario?: string;
  /** @default '/__harness__/state' */
  getState?: string;
  /** The scenario catalogue (`GET`: every registered scenario with its name, description and variants). @default '/__harness__/scenarios' */
  scenarios?: string;
  /** The test's call journal (`GET`, with `?method=&url=&unanswered=true&mockId=`; `DELETE` clears it). @default '/__harness__/journal' */
  journal?: string;
  /** Recording per test (`POST { mode }` starts, `GET` shows the draft, `DELETE` stops and returns it). @default '/__harness__/record' */
  record?: string;
  /** The inspector page (`GET`, HTML): live test IDs, their scenario, state and journal; the scenarios and their mocks. @default '/__harness__/' */
  inspector?: string;
  /** The live test IDs, paged (`GET`, with `?search=&limit=&cursor=`), as the inspector lists them. @default '/__harness__/sessions' */
  sessions?: string;
  /** The test's own mocks (`POST { mocks }` adds, `GET` lists, `DELETE` removes them), answered before its scenario. @default '/__harness__/mocks' */
  mocks?: string;
  /**
   * A call the browser made, answered from the test's session (`POST { method, url, headers, bodyBase64? }`):
   * the Playwright fixture's `harnessBrowser` and the client's `answer()` send the page's calls here.
   * @default '/__harness__/answer'
   */
  answer?: string;
  /**
   * The test's streams and their holds (`GET` lists them; `POST { id, action: 'release' | 'step' | 'abort', count? }`
   * acts on one): a stream mock with `hold` stops there until the test lets it go.
   * @default '/__harness__/streams'
   */
  streams?: string;
  /**
   * Push a frame to, or close, the test's open sockets of a URL (`POST { url, action: 'send' | 'close', data?, code?, reason? }`).
   * @default '/__harness__/sockets'
   */
  sockets?: string;
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
  /**
   * Most mocks one test may add for itself (`POST /__harness__/mocks`, `harness.useMocks`); past
   * it the request is a 413 and adds nothing.
   * @default 100
   */
  maxTestMocks?: number;
  /**
   * Most bytes one test's own mocks may take together, measured as JSON; past it the request is
   * a 413 and adds nothing.
   * @default 262144 (256 KiB)
   */
  maxTestMockBytes?: number;
  /**
   * Most bytes the own mocks of all tests in the store may take together, measured as JSON; past
   * it an add is a 413 naming this limit and adds nothing. A test's mocks count until it ends
   * (or removes them), or its session is evicted or expires.
   * @default 16777216 (16 MiB)
   */
  maxTotalTestMockBytes?: number;
  /**
   * Most bytes one test's state may hold, its keys and values measured as JSON. A mock's
   * `afterResponse.setState` that would take the state past it changes nothing (the call is still
   * answered, and the log says so once per test); a seed (`POST /__harness__/state`,
   * `harness.setState`) past it is a 413 naming this limit and changes nothing.
   * @default 4194304 (4 MiB)
   */
  maxStateBytes?: number;
}

/**
 * Who may use the control endpoints (opt-in; unset, anyone who reaches them may, as SPEC §5
 * has it). Give exactly one of `token` and `authorize`. A request refused gets
 * `401 { error }` with `WWW-Authenticate: Bearer realm="scenario-harness"`; the app's own
 * requests are never checked. Ignored (and not validated) when `enabled` is false.
 *
 * @example
 * createHarness({ enabled, scenarios, access: { token: process.env.HARNESS_TOKEN } });
 * @see https://github.com/scenario-harness/scenario-harness/blob/main/docs/reliability-and-security.md#access-control
 */
export interface AccessOptions {
  /**
   * A shared secret: every control request must carry `Authorization: Bearer <token>` (the
   * scheme in any case). At least 16 characters of letters, digits and `- . _ ~ + /` (RFC 6750),
   * such as the output of `openssl rand -hex 32`. Compared in constant time.
   */
  token?: string;
  /**
   * Decide per request instead: only `true` grants access. It gets the request's method, URL
   * and headers (not its body). One that throws refuses the request (401; the first error is
   * logged). It has no time limit: bound any call it makes (`AbortSignal.timeout`).
   */
  authorize?: (request: Request) => boolean | Promise<boolean>;
}

/**
 * Which browser requests the control endpoints answer. By default a request a browser sent from
 * another site (`Sec-Fetch-Site: cross-site`, or an `Origin` that is not the request's host) is
 * refused with `403 { error }`, and so is one addressed to a `Host` other than loopback
 * (`localhost`, `*.localhost`, 127.0.0.0/8, ::1) or an IP address: a page on another site, or one
 * that reaches the app through DNS rebinding, cannot then switch scenarios or read journals.
 * Requests without `Origin` or `Sec-Fetch-Site` (Node clients, Playwright's `request`, curl) are
 * never refused for it. The app's own requests are never checked.
 *
 * @example
 * // Tests reach the app as http://app:3000 (a service name in Docker Compose):
 * createHarness({ enabled, scenarios, control: { allowedHosts: ['app'] } });
 * @see https://github.com/scenario-harness/scenario-harness/blob/main/docs/reliability-and-security.md#cross-site-requests-and-dns-rebinding
 */
export interface HarnessControlOptions {
  /**
   * `Host` names the control endpoints answer besides loopback and IP addresses: `'app'` (any
   * port), `'app:3000'`, `'*.internal'` (any subdomain), a RegExp tested against the name, or
   * `'*'` for any Host.
   * @default [] (loopback and IP addresses only); `'*'` when `access` is set, since a page
   * cannot send its credential
   */
  allowedHosts?: (string | RegExp)[] | '*';
  /**
   * `true` answers requests that browsers send from other sites too (a test page on another
   * origin that calls the control endpoints itself, with CORS of your own).
   * @default false
   */
  allowCrossSite?: boolean;
}

export interface HarnessOptions<S extends ScenarioMap = ScenarioMap> {
  /** When false nothing is intercepted, no header is read and control paths reach the app (SPEC §5). */
  enabled: boolean;
  scenarios: S;
  endpoints?: HarnessEndpoints;
  /**
   * `'instant'`: every stream sends its chunks at once and no mock waits its `delay`
   * (`error: 'timeout'` still never answers), for suites that assert only the end state.
   * @default process.env.HARNESS_TIMING when it is 'instant' or 'real', else 'real'
   */
  timing?: 'instant' | 'real';
  /** @default 'warn' */
  unhandled?: UnhandledCallStrategy;
  /**
   * Where sessions live. @default an in-memory store, or the store of the harness already
   * answering in this process (see `sideBySide`)
   */
  store?: SessionStore;
  /**
   * One harness answers a process's calls: when a second one starts (its module evaluated again by
   * a dev server after an edit, or a second copy of the package), the newest answers, with the
   * sessions of the one before (one warning says so). `true` opts out, for harnesses meant to run
   * at the same time: each keeps its own store, and a call goes to the first whose mocks answer it.
   * @default false
   */
  sideBySide?: boolean;
  /** Where the start-up line, warnings and errors are written. @default console, prefixed `[scenario-harness]` */
  logger?: Logger;
  /**
   * Log one line at `start()` (through `logger.info`): enabled, that the harness is on, how
   * many scenarios it has, where the control endpoints are and what `unhandled` does;
   * disabled, that it is off and how to turn it on. Set `true` to see that an app runs with
   * the harness off (a production app stays silent by default), `false` for quiet tests.
   * Left out on a disabled harness, one line at creation says it is off, why and how to turn it
   * on, once per process, except under `NODE_ENV=production` or `test` and with
   * `HARNESS_ENABLED=false`.
   * @default enabled
   */
  announce?: boolean;
  /** Size limits on control requests and test IDs; each field has its own default. */
  limits?: HarnessLimits;
  /**
   * Hosts the app may reach for real when no mock answers, even with `unhandled: 'error'`, like
   * loopback: your own services, a database, a message queue. `'db.internal'` (any port),
   * `'db.internal:5432'`, `'*.internal'`, or a RegExp tested against the host name.
   * @default []
   */
  allowHosts?: (string | RegExp)[];
  /** Carry the current test ID to other services of yours (and to a standalone harness server). */
  propagate?: PropagateOptions;
  /** How a test's recorded calls become a scenario file (see `POST /__harness__/record`): secrets to keep out, more names to redact. */
  recording?: RecordingOptions;
  /**
   * `false`: start() patches nothing in this process; calls reach the engine only through the
   * package's own server (`scenario-harness serve`). For that server; apps leave it out.
   * @default true
   */
  intercept?: boolean;
  /**
   * The per-test call journal: every intercepted call, what was sent and which mock answered.
   * On by default (100 calls per test ID); `false` turns it off.
   */
  journal?: JournalOptions | false;
  /** Require a token (or your own check) on every control endpoint; unset, none is required. */
  access?: AccessOptions;
  /**
   * Let an enabled harness without `access` start under `NODE_ENV=production`. Unset, `start()`
   * refuses there, since anyone who reaches the app could switch the scenario real users get
   * (`default-test`); `HARNESS_ALLOW_PRODUCTION=true` in the environment does the same as `true`.
   * For a production build tested on a machine only the tests reach (`next start` in CI).
   * @default false
   */
  allowProduction?: boolean;
  /** Which Host names and which browser requests from other sites the control endpoints answer (by default: loopback and IP addresses, none from other sites). */
  control?: HarnessControlOptions;
  /**
   * Check each answered call under an API document's servers against the document: the app's
   * request (parameters, required headers, body) and the mock's answer (status, body, required
   * headers). Journal entries of those calls carry `contractViolations`. The documents, and the
   * JSON Schema validator, load at `start()`, only when this is set.
   * @example
   * createHarness({ enabled: true, scenarios, contracts: { openapi: ['./openapi/payments.yaml'], onViolation: 'error' } });
   */
  contracts?: ContractsOptions;
}

export interface PropagateOptions {
  /**
   * Outgoing calls to these hosts get the current test ID as the `x-harness-test-id` header and
   * the W3C `baggage` member `harness-test-id`. Never third parties by default. Same forms as
   * `allowHosts`.
   */
  hosts: (string | RegExp)[];
}
