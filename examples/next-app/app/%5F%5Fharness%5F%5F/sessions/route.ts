// Serves /__harness__/sessions, the live test IDs the inspector lists (see app/%5F%5Fscenario%5F%5F/route.ts).
import { harnessRouteHandlers } from 'scenario-harness/next';
import { harness } from '../../../lib/harness';

export const { GET } = harnessRouteHandlers(harness);
