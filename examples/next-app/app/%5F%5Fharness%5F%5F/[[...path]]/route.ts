// Serves every /__harness__ path: /__harness__ itself (the inspector; Next.js redirects
// /__harness__/ here), /state, /scenarios, /journal, /sessions, /record (see
// app/%5F%5Fscenario%5F%5F/route.ts). `[[...path]]` is an optional catch-all: it matches /__harness__ too.
import { harnessRouteHandlers } from 'scenario-harness/next';
import { harness } from '../../../lib/harness';

export const { GET, POST, DELETE } = harnessRouteHandlers(harness);
