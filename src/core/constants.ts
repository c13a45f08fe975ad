/** The request header that carries the test ID (SPEC §1). Fixed; not configurable. */
export const TEST_ID_HEADER = 'x-harness-test-id';

/**
 * The response header that carries help beyond SPEC on a control answer ("did you mean", a
 * variant the scenario does not declare, an ignored key): SPEC bodies keep exactly SPEC's fields.
 * Characters outside printable ASCII are written `\uXXXX`.
 */
export const HINT_HEADER = 'x-harness-hint';

/**
 * The W3C `baggage` member that carries the test ID across services; read when
 * `x-harness-test-id` is absent (`baggage: harness-test-id=t-42`).
 * @see https://www.w3.org/TR/baggage/
 */
export const BAGGAGE_TEST_ID_KEY = 'harness-test-id';

/** The test ID used when a request carries no (or an empty) test-ID header (SPEC §1). */
export const DEFAULT_TEST_ID = 'default-test';

/** The scenario that answers when a test has selected none, and the fallback layer for every test. */
export const DEFAULT_SCENARIO_ID = 'default';

/** Control endpoint paths when `endpoints` leaves them out (SPEC §1, Configuration; the catalogue is ours). */
export const DEFAULT_ENDPOINTS = Object.freeze({
  setScenario: '/__scenario__',
  getScenario: '/__scenario__',
  getState: '/__harness__/state',
  scenarios: '/__harness__/scenarios',
  journal: '/__harness__/journal',
  record: '/__harness__/record',
  inspector: '/__harness__/',
  sessions: '/__harness__/sessions',
  mocks: '/__harness__/mocks',
  answer: '/__harness__/answer',
  streams: '/__harness__/streams',
  sockets: '/__harness__/sockets',
});

/** The environment variable the clients, the Playwright fixture and `scenario-harness serve` read the access token from. */
export const HARNESS_TOKEN_ENV = 'HARNESS_TOKEN';

/** The limits a harness applies when `limits` leaves them out (docs/reliability-and-security.md). */
export const DEFAULT_LIMITS = Object.freeze({
  /** 64 KiB: a switch body is a few dozen bytes. */
  maxBodyBytes: 64 * 1024,
  /** A UUID is 36 characters; Playwright's test IDs are shorter still. */
  maxTestIdLength: 256,
  /** A test's own mocks are a few overrides, not a second scenario file. */
  maxTestMocks: 100,
  /** 256 KiB of a test's own mocks (as JSON), together: four full control bodies. */
  maxTestMockBytes: 256 * 1024,
  /** 16 MiB of the own mocks of all tests in the store (as JSON): 64 tests at maxTestMockBytes, thousands at a few KiB each. */
  maxTotalTestMockBytes: 16 * 1024 * 1024,
  /** 4 MiB of one test's state (keys and values as JSON): many orders' worth of IDs and totals, not every body a test sent. */
  maxStateBytes: 4 * 1024 * 1024,
});
