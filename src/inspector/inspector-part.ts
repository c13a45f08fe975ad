import { TEST_ID_HEADER } from '../core/constants.js';
import type { ControlAnswer } from '../core/control/control-call.js';
import type { ControlRoute } from '../core/control/control-routes.js';
import { answerRoutes, type PartDefinition } from '../core/parts/harness-part.js';
import { inspectorAnswer } from './inspector-answer.js';
import { listSessionsAnswer } from './list-sessions-answer.js';
import { scenarioDetails } from './scenario-details.js';

const ROUTES: readonly ControlRoute[] = [
  { endpoint: 'sessions', methods: ['GET'], listed: 'never', access: 'guarded', bodyLimit: 'none' },
  // The page itself holds no data (its data endpoints stay guarded): it is served without credentials so that it can ask for the token.
  { endpoint: 'inspector', methods: ['GET'], listed: 'page', access: 'open', bodyLimit: 'none' },
];

/**
 * The inspector (`endpoints.inspector`): a page that lists the live tests and shows each one's
 * journal, state and scenario; its list of sessions, and the catalogue with every scenario's
 * mocks (`GET /__harness__/scenarios?mocks=true`).
 */
export const INSPECTOR_PART: PartDefinition = {
  name: 'the inspector',
  routes: ROUTES,
  create({ store, endpoints, serves, scenarios }) {
    let page: Promise<ControlAnswer> | undefined;
    let details: readonly unknown[] | undefined;
    return {
      routes: answerRoutes(ROUTES, {
        sessions: ({ call, pathname }) => listSessionsAnswer(store, call.search, pathname),
        inspector: () => (page ??= inspectorAnswer({ endpoints, testIdHeader: TEST_ID_HEADER, journal: serves('journal') })),
      }),
      scenarioDetails: () => (details ??= scenarioDetails(scenarios.definitions, scenarios.catalogue)),
    };
  },
};
