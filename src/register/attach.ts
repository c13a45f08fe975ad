import { markAttached } from '../core/attached-harness.js';
import { createHarness } from '../core/create-harness.js';
import { scopeIncomingRequests } from '../adapters/scope-incoming-requests.js';
import { openRedisStore } from '../server/open-redis-store.js';
import { loadScenarioSources } from './load-scenario-sources.js';
import type { RegisterSettings } from './read-environment.js';

/**
 * Attach a harness to this process from register's settings: load and validate the scenarios,
 * open the Redis store when asked, start the interception, then answer the control endpoints
 * and scope every inbound request on the process's own servers. Loaded only when enabled.
 */
export async function attach(settings: RegisterSettings): Promise<void> {
  for (const note of settings.notes) console.warn(`[scenario-harness] ${note}`);
  const scenarios = await loadScenarioSources(settings.scenarios);
  const redis =
    settings.redisUrl === undefined
      ? undefined
      : await openRedisStore({ url: settings.redisUrl, setting: 'HARNESS_REDIS_URL', onError: (message) => console.error(`[scenario-harness] ${message}`) });
  const harness = createHarness({
    enabled: true,
    scenarios,
    ...(settings.unhandled === undefined ? {} : { unhandled: settings.unhandled }),
    ...(settings.token === undefined ? {} : { access: { token: settings.token } }),
    ...(settings.journal ? {} : { journal: false as const }),
    ...(redis === undefined ? {} : { store: redis.store }),
  });
  markAttached(harness);
  await harness.start();
  scopeIncomingRequests(harness);
}
