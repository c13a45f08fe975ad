import { markAttached } from '../core/attached-harness.js';
import { createHarness } from '../harness.js';
import { LOG_PREFIX, type Logger } from '../core/dev-utils.js';
import { scopeIncomingRequests } from '../adapters/scope-incoming-requests.js';
import { openRedisStore } from '../server/open-redis-store.js';
import { createMemoryStore } from '../core/store/memory-store.js';
import type { SessionStore } from '../core/store/session-store.js';
import { loadScenarioSources } from './load-scenario-sources.js';
import { hostSessions } from '../core/store/process-tree/host-sessions.js';
import { joinSessions } from '../core/store/process-tree/join-sessions.js';
import { SESSION_HOST_VARIABLE } from '../core/store/process-tree/protocol.js';
import type { RegisterSettings } from './read-environment.js';

/**
 * Every line on stderr, the start-up line too: register runs in every Node process a tool starts
 * (NODE_OPTIONS), and some of them print results on stdout for another program to parse (next
 * build reads `tsc --showConfig`'s stdout as JSON).
 */
const stderrLogger: Logger = {
  info: (message) => console.error(`${LOG_PREFIX} ${message}`),
  warn: (message) => console.error(`${LOG_PREFIX} ${message}`),
  error: (message, error) => (error === undefined ? console.error(`${LOG_PREFIX} ${message}`) : console.error(`${LOG_PREFIX} ${message}`, error)),
};

/**
 * Where this process keeps sessions: in Redis when asked; else, in a process that register's
 * first process started (a framework CLI's server, a dev server's workers), in that process's
 * store; else here, served to every process this one starts, which inherit the address.
 */
async function sessionStore(settings: RegisterSettings): Promise<SessionStore> {
  if (settings.redisUrl !== undefined) {
    const redis = await openRedisStore({ url: settings.redisUrl, setting: 'HARNESS_REDIS_URL', onError: (message) => console.error(`[scenario-harness] ${message}`) });
    return redis.store;
  }
  if (settings.sessionHost !== undefined) {
    console.warn(`[scenario-harness] sessions: process ${process.pid} shares the test sessions of the process under register that started it.`);
    return joinSessions(settings.sessionHost);
  }
  const store = createMemoryStore();
  process.env[SESSION_HOST_VARIABLE] = (await hostSessions(store, { port: settings.sessionPort })).address;
  return store;
}

/**
 * Attach a harness to this process from register's settings: load and validate the scenarios,
 * open the Redis store when asked, start the interception, then answer the control endpoints
 * and scope every inbound request on the process's own servers. Loaded only when enabled.
 */
export async function attach(settings: RegisterSettings): Promise<void> {
  for (const note of settings.notes) console.warn(`[scenario-harness] ${note}`);
  const scenarios = await loadScenarioSources(settings.scenarios);
  const store = await sessionStore(settings);
  const harness = createHarness({
    enabled: true,
    scenarios,
    logger: stderrLogger,
    ...(settings.unhandled === undefined ? {} : { unhandled: settings.unhandled }),
    ...(settings.token === undefined ? {} : { access: { token: settings.token } }),
    ...(settings.journal ? {} : { journal: false as const }),
    ...(settings.control === undefined ? {} : { control: settings.control }),
    store,
  });
  markAttached(harness);
  await harness.start();
  scopeIncomingRequests(harness);
}
