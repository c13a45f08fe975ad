import type { ControlRoute } from '../core/control/control-routes.js';
import { answerRoutes, type PartDefinition } from '../core/parts/harness-part.js';

const ROUTES: readonly ControlRoute[] = [{ endpoint: 'answer', methods: ['POST'], listed: 'when-on', access: 'guarded', bodyLimit: 'maxBodyBytes' }];

/**
 * The browser's own calls (`endpoints.answer`, the fixture's `harnessBrowser`): a call the
 * test's page made, answered as the app's calls are, by the same listener. The code that does
 * it loads on the first browser call: an app whose tests never route the browser never loads it.
 */
export const BROWSER_ANSWERS_PART: PartDefinition = {
  name: 'browser answers',
  routes: ROUTES,
  create({ listener }) {
    return {
      routes: answerRoutes(ROUTES, {
        answer: async ({ call, testId, bodyLimit }) => (await import('./answer-browser-call.js')).answerBrowserCall(call, testId, { listener: listener(), maxBodyBytes: bodyLimit }),
      }),
    };
  },
};
