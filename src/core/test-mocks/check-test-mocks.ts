import { compileScenarioMap, formatFieldPath } from '../engine/compile-scenarios.js';
import { judgeWithinBudget, patternsOf, REQUEST_REGEX_LIMITS } from '../engine/find-unsafe-regexes.js';
import { socketRegexMocks } from '../engine/sockets/compile-socket.js';

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
 * @note The mocks come with a request, so their patterns are checked within
 * `REQUEST_REGEX_LIMITS`, on a worker thread: the app answers other requests meanwhile
 * (issue 37, item 5). Past the number of patterns, nothing else is checked.
 */
export async function checkTestMocks(mocks: unknown, sockets?: unknown): Promise<TestMockProblem[]> {
  const patterns = patternsOf([...(Array.isArray(mocks) ? mocks : []), ...(Array.isArray(sockets) ? socketRegexMocks(sockets) : [])]);
  const { maxPatterns } = REQUEST_REGEX_LIMITS;
  if (patterns.length > maxPatterns) {
    return [
      {
        path: ['mocks'],
        field: 'mocks',
        message: `hold ${patterns.length} different regular expressions, and one request may send at most ${maxPatterns} (each is checked for catastrophic backtracking before anything is added). Send the mocks in several requests (a test's own mocks add up), or move the shared ones into a scenario`,
      },
    ];
  }
  const { judge, unchecked } = await judgeWithinBudget(patterns);
  const { problems } = compileScenarioMap({ [CHECKED_AS]: sockets === undefined ? { name: CHECKED_AS, mocks } : { name: CHECKED_AS, mocks, sockets } }, true, judge);
  // Paths come as `['test', 'mocks', 1, …]`: without the scenario ID they are the body's fields.
  const found = problems.map(({ path: [, ...rest], message }) => {
    const path = rest.map((segment) => (typeof segment === 'number' ? segment : String(segment)));
    return { path, field: formatFieldPath(path), message };
  });
  if (unchecked === 0) return found;
  // Out of time: said first, as the reason; each pattern left unchecked is among the details.
  const { totalMs } = REQUEST_REGEX_LIMITS;
  const message = `hold regular expressions whose check for catastrophic backtracking did not finish within the ${totalMs} ms the patterns of one request may take together (${unchecked} of ${patterns.length} not checked). Send fewer or simpler patterns per request (a test's own mocks add up over several requests), or move the mocks into a scenario, whose patterns are checked at start-up`;
  return [{ path: ['mocks'], field: 'mocks', message }, ...found];
}
