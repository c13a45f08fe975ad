import { quote, type Logger } from '../dev-utils.js';
import type { CompiledScenario } from '../engine/compile-scenarios.js';
import { HarnessError } from '../errors.js';
import { createStateRedactor } from '../control/create-state-redactor.js';
import { seedChanges } from '../store/seed-changes.js';
import type { SessionStore } from '../store/session-store.js';
import { stateSeedRefusal } from '../store/state-limit-note.js';
import type { ActiveScenario, HarnessEndpoints, HarnessOptions, ScenarioMap, ScenarioSummary } from '../types.js';
import { undeclaredVariantNote } from '../undeclared-variant-note.js';
import { unknownScenarioHint } from '../unknown-scenario-hint.js';
import { assertTestId } from './assert-test-id.js';

export interface SessionMethodsOptions {
  options: HarnessOptions<ScenarioMap>;
  compiled: ReadonlyMap<string, CompiledScenario>;
  catalogue: readonly ScenarioSummary[];
  store: SessionStore;
  logger: Logger;
  endpoints: Readonly<Required<HarnessEndpoints>>;
  maxTestIdLength: number;
  maxStateBytes: number;
}

/** What seeding a test's state came to: the state after it, what is wrong with the seed, or why it would take the state past `limits.maxStateBytes`. */
export type SeedOutcome = { state: Record<string, unknown> } | { problem: string } | { refused: { error: string; hint: string } };

/**
 * The sessions of SPEC §2–3, as the harness's methods and the SPEC routes share them: switch a
 * test to a scenario, read its scenario and state, seed its state, end it.
 */
export function createSessionMethods({ options, compiled, catalogue, store, logger, endpoints, maxTestIdLength, maxStateBytes }: SessionMethodsOptions) {
  // Over HTTP (the state endpoint, the inspector), values taken from secret headers are redacted.
  const redactState = createStateRedactor(compiled, options.journal === false ? [] : (options.journal?.redactHeaders ?? []));

  /** Switch a test; the returned warning says why the switch may not do what was meant. */
  async function activate(testId: string, scenarioId: string, variant: string | undefined): Promise<{ warning?: string }> {
    assertTestId(testId, 'switchScenario', maxTestIdLength);
    const scenario = compiled.get(scenarioId);
    if (scenario === undefined) {
      throw new HarnessError('UNKNOWN_SCENARIO', `Scenario '${scenarioId}' not found. Did you forget to register it? ${unknownScenarioHint(scenarioId, [...compiled.keys()], endpoints.scenarios)}`);
    }
    if (variant !== undefined && typeof variant !== 'string') {
      throw new HarnessError('INVALID_ARGUMENT', `Expected the variant to be a string, instead got ${typeof variant}.`);
    }
    const warning = variant === undefined || scenario.variants.has(variant) ? undefined : undeclaredVariantNote(scenarioId, variant, [...scenario.variants.keys()]);
    if (warning !== undefined) logger.warn(`Test ${quote(testId)} selected an undeclared variant. ${warning}`);
    await store.activate(testId, variant === undefined ? { scenarioId } : { scenarioId, variant });
    return warning === undefined ? {} : { warning };
  }

  async function getState(testId: string): Promise<Record<string, unknown>> {
    assertTestId(testId, 'getState', maxTestIdLength);
    return { ...(await store.read(testId))?.state };
  }

  return {
    activate,
    async switchScenario(testId: string, scenarioId: string, variant?: string): Promise<void> {
      await activate(testId, scenarioId, variant);
    },
    async getActiveScenario(testId: string): Promise<ActiveScenario | undefined> {
      assertTestId(testId, 'getActiveScenario', maxTestIdLength);
      return (await store.read(testId))?.active;
    },
    getState,
    /** The state as the state endpoint and the inspector show it: secret header values redacted. */
    stateOverHttp: async (testId: string) => redactState(await getState(testId)),
    async endTest(testId: string): Promise<void> {
      assertTestId(testId, 'endTest', maxTestIdLength);
      await store.end(testId);
    },
    listScenarios: (): ScenarioSummary[] => catalogue.map((entry) => ({ ...entry, variants: [...entry.variants] })),
    async setState(testId: string, state: Record<string, unknown>): Promise<void> {
      assertTestId(testId, 'setState', maxTestIdLength);
      const changes = seedChanges(state);
      if (typeof changes === 'string') throw new HarnessError('INVALID_ARGUMENT', `Failed to set the state of test ${quote(testId)}: ${changes}.`);
      const refused = await store.updateState(testId, changes, undefined, { maxBytes: maxStateBytes });
      if (refused !== undefined) throw new HarnessError('INVALID_ARGUMENT', stateSeedRefusal(testId, refused, maxStateBytes).error);
    },
    /** `POST` on the state path: merge keys into a test's state. */
    async seedState(testId: string, state: unknown): Promise<SeedOutcome> {
      const changes = seedChanges(state);
      if (typeof changes === 'string') return { problem: changes };
      const refused = await store.updateState(testId, changes, undefined, { maxBytes: maxStateBytes });
      if (refused !== undefined) return { refused: stateSeedRefusal(testId, refused, maxStateBytes) };
      return { state: redactState(await getState(testId)) };
    },
  };
}

export type SessionMethods = ReturnType<typeof createSessionMethods>;
