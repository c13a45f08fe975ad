import { answeringHarness } from './answering-harness.js';
import { DEFAULT_ENDPOINTS, DEFAULT_LIMITS } from './constants.js';
import { consoleLogger, type Logger } from './dev-utils.js';
import { sayDisabledOnce } from './disabled-note.js';
import { compileScenarios, type CompiledScenario } from './engine/compile-scenarios.js';
import type { ResolvedLimits } from './parts/harness-part.js';
import { catalogueOf } from './spec/catalogue-of.js';
import { createMemoryStore } from './store/memory-store.js';
import type { SessionStore } from './store/session-store.js';
import type { HarnessEndpoints, HarnessOptions, ScenarioMap, ScenarioSummary } from './types.js';

/** A harness's options with every default filled in, and its scenarios compiled: what the core and its parts read. */
export interface HarnessSettings {
  enabled: boolean;
  logger: Logger;
  announce: boolean;
  endpoints: Readonly<Required<HarnessEndpoints>>;
  limits: ResolvedLimits;
  store: SessionStore;
  /** True when `store` is the sessions of the harness already answering in this process (a dev server's reload). */
  adoptedStore: boolean;
  /** `'instant'`: no stream or mock waits (`timing`, else `HARNESS_TIMING`). */
  timing: 'instant' | 'real';
  scenarios: { definitions: ScenarioMap; compiled: ReadonlyMap<string, CompiledScenario>; catalogue: readonly ScenarioSummary[] };
}

/** Read a harness's options (already validated) into its settings. */
export function harnessSettings(options: HarnessOptions<ScenarioMap>): HarnessSettings {
  const { enabled, scenarios: definitions, logger = consoleLogger, announce = enabled } = options;
  // A disabled harness never matches a call, so it skips the (slow) backtracking check.
  const compiled = compileScenarios(definitions, { checkRegexes: enabled });
  const catalogue = catalogueOf(definitions, compiled.keys(), (id) => compiled.get(id)?.variants.keys() ?? []);
  // A harness created while another answers (its module evaluated again by a dev server) keeps
  // that one's sessions, so tests switched before the reload keep their scenario, state and journal.
  const sideBySide = options.sideBySide === true || options.intercept === false;
  const adopted = options.store === undefined && enabled && !sideBySide ? answeringHarness()?.store : undefined;
  const endpoints = Object.freeze({ ...DEFAULT_ENDPOINTS, ...options.endpoints });
  // @note A disabled harness is silent by SPEC §5 (no header read, nothing intercepted), which made
  // a forgotten HARNESS_ENABLED look like a broken harness: outside production and test runners it
  // says so once, at creation, unless `announce` was given (true says it at start() instead).
  if (!enabled && options.announce === undefined) sayDisabledOnce(logger, endpoints.setScenario);
  return {
    enabled,
    logger,
    announce,
    endpoints,
    limits: Object.freeze({ ...DEFAULT_LIMITS, ...Object.fromEntries(Object.entries(options.limits ?? {}).filter(([, value]) => value !== undefined)) }) as ResolvedLimits,
    store: options.store ?? adopted ?? createMemoryStore(),
    adoptedStore: adopted !== undefined,
    // @note Read here, so `register` and `serve` (which create harnesses too) honour HARNESS_TIMING.
    timing: options.timing ?? (process.env['HARNESS_TIMING'] === 'instant' ? 'instant' : 'real'),
    scenarios: { definitions, compiled, catalogue },
  };
}
