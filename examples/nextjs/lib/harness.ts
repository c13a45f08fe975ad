import { createNextHarness } from 'scenario-harness/next';
import { scenarios } from './scenarios';

// createNextHarness, not createHarness: Next.js loads this file once per bundle
// (instrumentation, each route), and they must all share the process's one harness.
export const harness = createNextHarness({
  enabled: process.env.HARNESS_ENABLED === 'true', // read when the server starts: one build serves both
  scenarios,
  unhandled: 'error',
});
