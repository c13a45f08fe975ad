// Serves every /__harness__ path: /__harness__ itself (the inspector), /state, /scenarios,
// /journal, /sessions. `[[...path]]` is an optional catch-all: it matches /__harness__ too.
import { harnessRouteHandlers } from 'scenario-harness/next';
import { harness } from '../../../lib/harness';

export const { GET, POST, DELETE } = harnessRouteHandlers(harness);
