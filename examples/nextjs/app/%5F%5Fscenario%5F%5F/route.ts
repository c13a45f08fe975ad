// Serves /__scenario__ (POST switches, GET reads, DELETE ends the test). `%5F` is `_`:
// App Router folders whose names start with `_` are private.
import { harnessRouteHandlers } from 'scenario-harness/next';
import { harness } from '../../lib/harness';

export const { GET, POST, DELETE } = harnessRouteHandlers(harness);
