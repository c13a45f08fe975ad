import { compileScenarios } from './engine/compile-scenarios.js';
import type { Mock, ScenarioDefinition, ScenarioMap, ScenarioVariant } from './types.js';

/** The type an unknown key gets, so the compiler names it and the allowed ones where it is written. */
type UnknownKey<K, Where extends string, Allowed extends string> = { [Message in `unknown key "${K & string}" on ${Where}; allowed keys: ${Allowed}`]: never };

/**
 * Laid over `T` (`T & KnownKeys<…>`): a key `Shape` does not have gets an error type, a known
 * one `unknown` (its type stays `T`'s, contextual typing of response functions included) or,
 * for a nested list, that list's own check.
 */
type KnownKeys<T, Shape, Where extends string, Allowed extends string, Nested extends Partial<Record<keyof Shape, unknown>> = Record<never, never>> = {
  [K in keyof T]: K extends keyof Shape ? (K extends keyof Nested ? Nested[K] : unknown) : UnknownKey<K, Where, Allowed>;
};

type CheckedMocks<L> = { [I in keyof L]: KnownKeys<L[I], Mock, 'a mock', '"id", "method", "url", "match", "response", "sequence", "afterResponse"'> };

type CheckedVariants<V> = { [Name in keyof V]: KnownKeys<V[Name], ScenarioVariant, 'a variant', '"mocks"', { mocks: V[Name] extends { mocks: infer L } ? CheckedMocks<L> : unknown }> };

/** The keys no mock has, written on the mocks of `S` (its scenarios' and their variants'). */
type UnknownMockKeys<S> = {
  [Id in keyof S]:
    | (S[Id] extends { mocks: readonly (infer M)[] } ? Exclude<M extends unknown ? keyof M : never, keyof Mock> : never)
    | (S[Id] extends { variants: infer V } ? { [Name in keyof V]: V[Name] extends { mocks: readonly (infer M)[] } ? Exclude<M extends unknown ? keyof M : never, keyof Mock> : never }[keyof V] : never);
}[keyof S];

/**
 * Laid over a scenario map: a key no mock has (a misspelt `respones`) becomes a compile error
 * where it is written, naming the allowed keys. (TypeScript's own excess-property check does not
 * reach the objects in the arrays of a generic argument; it does catch `mock` on a scenario and
 * `qeury` in `match`.) `unknown`, which changes nothing, when every mock key is known, so the
 * compiler's own checks and messages stay as they are.
 */
export type CheckedScenarios<S> = [UnknownMockKeys<S>] extends [never]
  ? unknown
  : {
      [Id in keyof S]: KnownKeys<
        S[Id],
        ScenarioDefinition,
        'a scenario',
        '"name", "description", "mocks", "variants"',
        { mocks: S[Id] extends { mocks: infer L } ? CheckedMocks<L> : unknown; variants: S[Id] extends { variants: infer V } ? CheckedVariants<V> : unknown }
      >;
    };

/**
 * Declare scenarios with their IDs kept as literal types (so `switchScenario('typo')` is a
 * compile error) and check them at once.
 *
 * Where definition errors are thrown: here, when the scenarios module is first imported, as a
 * `HarnessError` with code `INVALID_SCENARIOS` that lists every problem with its scenario ID,
 * mock index and field (`scenario "premium", mocks[0]: unknown key "respnse" (did you mean
 * "response"?)`) and says it came from `defineScenarios()`. `createHarness()` runs the same
 * check on whatever map it gets (one made without `defineScenarios` too) and throws the same
 * error naming `createHarness()`. The one difference: a harness created with
 * `enabled: false` skips the check of regular expressions for catastrophic backtracking,
 * since it never matches a call.
 *
 * @example
 * export const scenarios = defineScenarios({
 *   default: { name: 'Happy path', mocks: [{ url: 'https://api.example.com/user', response: { body: { name: 'Ada' } } }] },
 *   userMissing: { name: 'User missing', mocks: [{ url: 'https://api.example.com/user', response: { status: 404 } }] },
 * });
 * @see https://github.com/scenario-harness/scenario-harness/blob/main/docs/troubleshooting-errors.md
 */
export function defineScenarios<const S extends ScenarioMap>(scenarios: S & CheckedScenarios<S>): S {
  compileScenarios(scenarios, { checkedBy: 'defineScenarios()' });
  return scenarios;
}
