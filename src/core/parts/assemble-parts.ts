import type { ControlRoute } from '../control/control-routes.js';
import type { HarnessEndpoints } from '../types.js';
import type { CallSteps } from './call-steps.js';
import type { HarnessPart, PartContext, PartDefinition, PartMethods, PartRoute } from './harness-part.js';

/** What a harness's parts come to together: the route table, the call path's steps, the methods they bring, their start and stop. */
export interface AssembledParts {
  /** Every part's routes, in the order of the parts and of each part's routes. */
  readonly routes: readonly PartRoute[];
  readonly steps: CallSteps;
  readonly methods: PartMethods;
  /** The routes the start-up line names (`listed` other than `never`), of parts that are on. */
  readonly listed: readonly ControlRoute[];
  /** Each part's `start`, in order; the first rejection rejects. */
  start(): Promise<void>;
  /** Each part's `stop`, in reverse order. */
  stop(): Promise<void>;
}

/** The context a part gets, less what the assembly itself answers. */
export type PartBase = Omit<PartContext, 'serves' | 'isControlPath' | 'scenarioDetails'>;

/** Merge two parts' steps; at most one part brings each step, or which ran first would be an accident of the list's order. */
function mergeSteps(into: Record<string, unknown>, from: CallSteps, owners: Map<string, string>, name: string): void {
  for (const [kind, step] of Object.entries(from)) {
    if (step === undefined) continue;
    const owner = owners.get(kind);
    if (owner !== undefined) throw new Error(`${owner} and ${name} both bring the call path's "${kind}" step; at most one part may bring each step.`);
    owners.set(kind, name);
    into[kind] = step;
  }
}

/**
 * Make each part for one harness and put what they bring together. The parts see one another
 * only through the context (`serves`, `scenarioDetails`), which the assembly answers once all
 * are made: no part holds another.
 */
export function assembleParts(definitions: readonly PartDefinition[], base: PartBase, isControlPath: (pathname: string) => boolean): AssembledParts {
  const made: { definition: PartDefinition; part: HarnessPart }[] = [];
  const context: PartContext = {
    ...base,
    serves: (endpoint: keyof HarnessEndpoints) => made.some(({ part }) => part.on !== false && (part.routes ?? []).some((route) => route.endpoint === endpoint)),
    isControlPath,
    scenarioDetails: () => made.find(({ part }) => part.scenarioDetails !== undefined)?.part.scenarioDetails!(),
  };
  for (const definition of definitions) made.push({ definition, part: definition.create(context) });

  const steps: Record<string, unknown> = {};
  const owners = new Map<string, string>();
  const methods: PartMethods = {};
  for (const { definition, part } of made) {
    if (part.steps !== undefined) mergeSteps(steps, part.steps, owners, definition.name);
    Object.assign(methods, part.methods);
  }
  return {
    routes: made.flatMap(({ part }) => part.routes ?? []),
    steps: steps as CallSteps,
    methods,
    listed: made.flatMap(({ part }) => (part.on === false ? [] : (part.routes ?? []).filter((route) => route.listed !== 'never'))),
    async start() {
      for (const { part } of made) await part.start?.();
    },
    async stop() {
      for (const { part } of [...made].reverse()) await part.stop?.();
    },
  };
}
