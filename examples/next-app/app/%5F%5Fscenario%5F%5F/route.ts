// `%5F` is `_`: App Router folders starting with `_` are private, this one serves /__scenario__.
import { harnessRouteHandlers } from 'scenario-harness/next';
import { harness } from '../../lib/harness';

export const { GET, POST, DELETE } = harnessRouteHandlers(harness);
