// Serves /__harness__/state.
import { harnessRouteHandlers } from 'scenario-harness/next';
import { harness } from '../../../lib/harness';

export const { GET } = harnessRouteHandlers(harness);
