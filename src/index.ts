/**
 * @module
 * scenario-harness: per-test mock scenarios for a real Node.js app, switched over HTTP.
 */

/* Creating a harness */
export { createHarness } from './harness.js';
export type { Harness, ScenarioId, VariantName } from './core/create-harness.js';
export { defineScenarios } from './core/define-scenarios.js';

/* Scenario files */
export { loadScenarios } from './files/load-scenarios.js';

/* Constants */
export { BAGGAGE_TEST_ID_KEY, DEFAULT_ENDPOINTS, DEFAULT_LIMITS, DEFAULT_SCENARIO_ID, DEFAULT_TEST_ID, HINT_HEADER, TEST_ID_HEADER } from './core/constants.js';

/* Errors */
export { HarnessError, isHarnessError } from './core/errors.js';
export type { HarnessErrorCode } from './core/errors.js';

/* Sessions and stores */
export { createMemoryStore } from './core/store/memory-store.js';
export type { MemoryStore, MemoryStoreOptions } from './core/store/memory-store.js';
export type {
  AddMocksResult,
  JournalBounds,
  SequenceRepeat,
  SessionPage,
  SessionSnapshot,
  SessionStore,
  SessionSummary,
  StateChange,
  StateLimits,
  StateRefusal,
  StoredMocks,
  TestMockLimits,
  TestState,
} from './core/store/session-store.js';

/* Definition and option types */
export type {
  AccessOptions,
  ActiveScenario,
  GraphqlMatch,
  HarnessControlOptions,
  HarnessEndpoints,
  HarnessLimits,
  HarnessOptions,
  HttpMethod,
  LlmApi,
  LlmChunking,
  LlmErrorAfter,
  LlmFinish,
  LlmResponse,
  LlmToolCall,
  LlmUsage,
  Mock,
  MockMatch,
  MockFault,
  MockResponse,
  MockResponseContext,
  MockResponseFunction,
  MockSequence,
  MockStream,
  RecordedChunk,
  PropagateOptions,
  ScenarioDefinition,
  ScenarioMap,
  ScenarioSummary,
  ScenarioVariant,
  SocketFrame,
  SocketMatch,
  SocketMock,
  SocketRule,
  SocketStep,
  StreamHold,
  StreamTiming,
  StringMatch,
  UnhandledCallContext,
  UnhandledCallStrategy,
} from './core/types.js';
export type { Logger } from './core/dev-utils.js';
export type { JournalEntry, JournalFilter, JournalOptions, JournalSocket } from './core/journal/journal-entry.js';
export type { ContractsOptions, ContractViolationStrategy } from './core/contract-check.js';
export type { HeadersLike } from './core/read-test-id.js';
