import { jsonAnswer, type ControlAnswer } from '../control/control-call.js';
import type { ControlRoute } from '../control/control-routes.js';
import { answerRoutes, type PartDefinition, type RouteRequest } from '../parts/harness-part.js';
import { checkJournalOptions } from './check-journal-options.js';
import { createJournalRecorder, type JournalRecorder } from './create-journal-recorder.js';
import type { JournalFilter } from './journal-entry.js';
import { urlFilterProblem } from './url-filter.js';

const ROUTES: readonly ControlRoute[] = [{ endpoint: 'journal', methods: ['GET', 'DELETE'], listed: 'when-on', access: 'guarded', bodyLimit: 'none' }];

/** `?method=POST&url=*\/v1/charges&unanswered=true&mockId=x` → a journal filter. */
function journalFilterOf(search: string): JournalFilter {
  const params = new URLSearchParams(search);
  const filter: JournalFilter = {};
  const method = params.get('method');
  const url = params.get('url');
  const mockId = params.get('mockId');
  if (method !== null && method !== '') filter.method = method;
  if (url !== null && url !== '') filter.url = url;
  if (mockId !== null && mockId !== '') filter.mockId = mockId;
  if (params.get('unanswered') === 'true') filter.unanswered = true;
  return filter;
}

/** `GET` the test's calls (filtered by the query); `DELETE` empties its journal. */
async function journalRoute({ call, testId }: RouteRequest, journal: JournalRecorder | undefined): Promise<ControlAnswer> {
  if (journal === undefined) {
    return jsonAnswer({ error: 'The journal is off: this harness keeps no calls (createHarness({ journal: false }), or a store without appendCall/readCalls).' }, 404);
  }
  if (call.method === 'DELETE') {
    await journal.clear(testId);
    return jsonAnswer({ success: true, testId });
  }
  const filter = journalFilterOf(call.search);
  const problem = filter.url === undefined ? undefined : urlFilterProblem(filter.url);
  if (problem !== undefined) return jsonAnswer({ error: `Invalid journal filter: ${problem}.` }, 400);
  return jsonAnswer({ testId, calls: await journal.read(testId, filter) });
}

/**
 * The journal: every intercepted call of a test, answered or not, kept in the store
 * (`journal` option, `endpoints.journal`, `harness.getCalls`). On the call path it records
 * each call after its answer.
 */
export const JOURNAL_PART: PartDefinition = {
  name: 'the journal',
  routes: ROUTES,
  checkOptions: (options) => checkJournalOptions(options.journal),
  create({ enabled, options, store, logger, assertTestId }) {
    const journal = enabled ? createJournalRecorder(options.journal, store, logger) : undefined;
    return {
      on: journal !== undefined,
      routes: answerRoutes(ROUTES, { journal: (request) => journalRoute(request, journal) }),
      ...(journal === undefined ? {} : { steps: { record: journal } }),
      methods: {
        async getCalls(testId, filter) {
          assertTestId(testId, 'getCalls');
          return journal === undefined ? [] : journal.read(testId, filter);
        },
        async clearCalls(testId) {
          assertTestId(testId, 'clearCalls');
          await journal?.clear(testId);
        },
      },
    };
  },
};
