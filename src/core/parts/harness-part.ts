import type { ControlAnswer, ControlCall } from '../control/control-call.js';
import type { ControlRoute } from '../control/control-routes.js';
import type { Logger } from '../dev-utils.js';
import type { CompiledScenario } from '../engine/compile-scenarios.js';
import type { CallListener } from '../interception/call-outcome.js';
import type { SessionStore } from '../store/session-store.js';
import type { JournalEntry, JournalFilter } from '../journal/journal-entry.js';
import type { HarnessEndpoints, HarnessLimits, HarnessOptions, Mock, ScenarioMap, ScenarioSummary } from '../types.js';
import type { SessionMethods } from '../spec/session-methods.js';
import type { CallSteps } from './call-steps.js';

/** `limits`, with every default filled in. */
export type ResolvedLimits = Readonly<Required<HarnessLimits>>;

/** What every part is given when a harness assembles it: the harness's own settings, never another part. */
export interface PartContext {
  readonly options: HarnessOptions<ScenarioMap>;
  readonly enabled: boolean;
  readonly store: SessionStore;
  readonly logger: Logger;
  readonly endpoints: Readonly<Required<HarnessEndpoints>>;
  readonly limits: ResolvedLimits;
  /** `'instant'`: nothing a part paces waits (`createHarness({ timing })`, else `HARNESS_TIMING`). */
  readonly timing: 'instant' | 'real';
  /** The scenario definitions as given, compiled, and as the catalogue lists them. */
  readonly scenarios: { readonly definitions: ScenarioMap; readonly compiled: ReadonlyMap<string, CompiledScenario>; readonly catalogue: readonly ScenarioSummary[] };
  /** The harness's answer to an outgoing call; call it once the harness is assembled (in a route, not at creation). */
  listener(): CallListener;
  /** The sessions of SPEC §2–3 (switch, state, end): the core's own, which every part may use. */
  readonly sessions: SessionMethods;
  /** Whether the harness serves an endpoint: its part is in and on (the inspector page shows the journal only when it is). */
  serves(endpoint: keyof HarnessEndpoints): boolean;
  /** True for a path some control route answers on. */
  isControlPath(pathname: string): boolean;
  /** What a part gives for `GET /__harness__/scenarios?mocks=true` (`undefined`: none does). */
  scenarioDetails(): readonly unknown[] | undefined;
  /** Throws `INVALID_TEST_ID` for a test ID a `harness.<method>()` must refuse. */
  assertTestId(testId: unknown, method: string): void;
}

/** A control request, as a route's answer gets it. */
export interface RouteRequest {
  readonly call: ControlCall;
  /** Its test ID, by SPEC §1 (checked against `limits.maxTestIdLength` already). */
  readonly testId: string;
  readonly pathname: string;
  /** The route's body limit, in bytes (`0`: it reads no body). */
  readonly bodyLimit: number;
  /** The JSON body, read up to the body limit; or the `413`/`400` answer every endpoint gives for a body it cannot take. */
  readBody(): Promise<{ ok: true; value: unknown } | { ok: false; answer: ControlAnswer }>;
}

/** A route of an assembled part: its entry in the route table, and its answer. */
export interface PartRoute extends ControlRoute {
  answer(request: RouteRequest): Promise<ControlAnswer>;
}

/** The `Harness` methods a part may bring (the rest are the core's). */
export interface PartMethods {
  getCalls?: (testId: string, filter?: JournalFilter) => Promise<JournalEntry[]>;
  clearCalls?: (testId: string) => Promise<void>;
  useMocks?: (testId: string, mocks: Mock[]) => Promise<number>;
  resetMocks?: (testId: string) => Promise<void>;
}

/** One capability, made for one harness: what it adds to it. Every field is optional. */
export interface HarnessPart {
  /** Its control routes, one per route the definition declares (same endpoints, same order). */
  readonly routes?: readonly PartRoute[];
  /**
   * Whether it serves its routes now (`false`: they answer a `404`/`501` that says why, and the
   * start-up line does not name them). @default true
   */
  readonly on?: boolean;
  /** Its steps on the call path, before and after the answer. */
  readonly steps?: CallSteps;
  /** The `Harness` methods it brings. */
  readonly methods?: PartMethods;
  /** The catalogue with every scenario's mocks, for `GET /__harness__/scenarios?mocks=true`. */
  scenarioDetails?(): readonly unknown[];
  /** Run by `harness.start()` before any call is answered; a rejection fails the start, naming why. */
  start?(): Promise<void>;
  /** Run by `harness.stop()`, after the harness stopped answering calls. */
  stop?(): Promise<void>;
}

/**
 * A capability of the harness (the journal, own mocks, contracts, browser answers, recording,
 * the inspector), as the harness composes it: declared once, made per harness by `create`.
 * What it declares here is static (the route table, the option keys), so that the Next.js route
 * handlers, the option check and the conformance suites read it without making a harness.
 */
export interface PartDefinition {
  /** For messages: "the journal", "own mocks". */
  readonly name: string;
  /** Its entries in the control route table (the answers come with `create`). */
  readonly routes: readonly ControlRoute[];
  /** Checks the `createHarness` options it owns (their types are `HarnessOptions`'s); throws `INVALID_OPTIONS` saying what is wrong and how to fix it. */
  checkOptions?(options: HarnessOptions<ScenarioMap>): void;
  create(context: PartContext): HarnessPart;
}

/** A part's declared routes with their answers, by endpoint: every declared route needs one. */
export function answerRoutes(routes: readonly ControlRoute[], answers: Partial<Record<keyof HarnessEndpoints, PartRoute['answer']>>): PartRoute[] {
  return routes.map((route) => {
    const answer = answers[route.endpoint];
    if (answer === undefined) throw new Error(`The route of endpoints.${route.endpoint} was declared without an answer.`);
    return { ...route, answer };
  });
}
