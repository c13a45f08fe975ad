import type { ControlRoute } from '../control/control-routes.js';
import { quote } from '../dev-utils.js';
import { HarnessError } from '../errors.js';
import { answerRoutes, type PartDefinition } from '../parts/harness-part.js';
import { createOwnMockLayers } from './create-own-mock-layers.js';
import { createTestMocks } from './create-test-mocks.js';
import { testMocksRoute } from './test-mocks-route.js';

const ROUTES: readonly ControlRoute[] = [{ endpoint: 'mocks', methods: ['POST', 'GET', 'DELETE'], listed: 'when-on', access: 'guarded', bodyLimit: 'maxBodyBytes' }];

/**
 * A test's own mocks (`endpoints.mocks`, `harness.useMocks`): answered before its scenario,
 * kept in the store as plain data, compiled once per version in each process. On the call path
 * it lays the test's layer over its scenario's.
 */
export const OWN_MOCKS_PART: PartDefinition = {
  name: 'own mocks',
  routes: ROUTES,
  create({ store, limits, endpoints, assertTestId }) {
    const ownMocks = createOwnMockLayers(store);
    const testMocks = createTestMocks({
      store,
      ownMocks,
      maxMocks: limits.maxTestMocks,
      maxBytes: limits.maxTestMockBytes,
      maxTotalBytes: limits.maxTotalTestMockBytes,
      mocksPath: endpoints.mocks,
      endPath: endpoints.setScenario,
    });
    return {
      // A store without addMocks answers the endpoint 501, so the start-up line never offers it.
      on: testMocks.available,
      routes: answerRoutes(ROUTES, { mocks: (request) => testMocksRoute(request, testMocks) }),
      steps: { layers: ownMocks },
      methods: {
        async useMocks(testId, mocks) {
          assertTestId(testId, 'useMocks');
          const added = await testMocks.add(testId, mocks);
          if (added.ok) return added.count;
          const code = added.status === 400 ? 'INVALID_SCENARIOS' : 'INVALID_ARGUMENT';
          const problems = added.details === undefined ? '' : `\n${added.details.map(({ field, message }) => `  - ${field}: ${message}`).join('\n')}`;
          throw new HarnessError(code, `${added.status === 400 ? `Failed to add mocks for test ${quote(testId)}: invalid mocks (nothing was added):` : added.error}${problems}`);
        },
        async resetMocks(testId) {
          assertTestId(testId, 'resetMocks');
          await testMocks.reset(testId);
        },
      },
    };
  },
};
