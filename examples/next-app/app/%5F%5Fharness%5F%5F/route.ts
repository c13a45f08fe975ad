// Serves /__harness__ (Next.js redirects /__harness__/ here), the inspector page (see app/%5F%5Fscenario%5F%5F/route.ts).
import { harnessRouteHandlers } from 'scenario-harness/next';
import { harness } from '../../lib/harness';

export const { GET, POST } = harnessRouteHandlers(harness);
