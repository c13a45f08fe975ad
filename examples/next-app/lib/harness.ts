import { createNextHarness } from 'scenario-harness/next';
import { scenarios } from './scenarios';

/**
 * The app's one harness. Next.js evaluates this file once per bundle; createNextHarness()
 * returns the same harness every time. `enabled` is read when the server starts, so one
 * `next build` serves both HARNESS_ENABLED=true and =false.
 */
export const harness = createNextHarness({
  enabled: process.env.HARNESS_ENABLED === 'true',
  scenarios,
  unhandled: 'error',
  // Shared staging? Require a token on the control endpoints; the tests send the same HARNESS_TOKEN.
  ...(process.env.HARNESS_TOKEN ? { access: { token: process.env.HARNESS_TOKEN } } : {}),
  // Tests that reach the app by a name other than localhost (a Compose service) list it here.
  ...(process.env.HARNESS_ALLOWED_HOSTS ? { control: { allowedHosts: process.env.HARNESS_ALLOWED_HOSTS.split(',') } } : {}),
  endpoints: {
    ...(process.env.HARNESS_SCENARIO_PATH ? { setScenario: process.env.HARNESS_SCENARIO_PATH, getScenario: process.env.HARNESS_SCENARIO_PATH } : {}),
    ...(process.env.HARNESS_STATE_PATH ? { getState: process.env.HARNESS_STATE_PATH } : {}),
  },
});
