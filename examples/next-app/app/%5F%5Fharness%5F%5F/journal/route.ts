// Serves /__harness__/journal, the test's call journal (see app/%5F%5Fscenario%5F%5F/route.ts).
import { harnessRouteHandlers } from 'scenario-harness/next';
import { harness } from '../../../lib/harness';

export const { GET, DELETE } = harnessRouteHandlers(harness);
