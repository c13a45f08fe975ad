import { compileScenarioMap, formatFieldPath } from '../engine/compile-scenarios.js';

/** One thing wrong with a list of a test's own mocks: where, as a field of the request body (`['mocks', 1, 'response', 'status']`), and what. */
export interface TestMockProblem {
  path: (string | number)[];
  /** `mocks[1].response.status`: the path as the docs write fields. */
  field: string;
  message: string;
}

/** The ID the list is checked under: problems come back without it. */
const CHECKED_AS = 'test';

/**
 * Every problem of a list of mocks, by the rules of a scenario's `mocks` (the scenario-file
 * schema, then the compiler's: URL patterns, templates, regexes that could backtrack), each
 * named by its place under `mocks`. `[]` when the list is fine.
 */
export function checkTestMocks(mocks: unknown): TestMockProblem[] {
  const { problems } = compileScenarioMap({ [CHECKED_AS]: { name: CHECKED_AS, mocks } }, true);
  // Paths come as `['test', 'mocks', 1, …]`: without the scenario ID they are the body's fields.
  return problems.map(({ path: [, ...rest], message }) => {
    const path = rest.map((segment) => (typeof segment === 'number' ? segment : String(segment)));
    return { path, field: formatFieldPath(path), message };
  });
}
