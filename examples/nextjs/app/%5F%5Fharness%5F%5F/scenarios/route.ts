// Serves /__harness__/scenarios, the scenario catalogue.
import { harnessRouteHandlers } from 'scenario-harness/next';
import { harness } from '../../../lib/harness';

export const { GET } = harnessRouteHandlers(harness);
