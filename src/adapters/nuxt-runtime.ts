/**
 * @module
 * The server side of the Nuxt module (scenario-harness/nuxt): the Nitro plugin it adds imports
 * this. Nuxt refuses server code that imports a module's own entry, hence a subpath of its own.
 */
import { createHarness } from '../harness.js';
import { HarnessError } from '../core/errors.js';
import type { HarnessOptions, ScenarioMap } from '../core/types.js';
import { joinSessions } from '../core/store/process-tree/join-sessions.js';
import { SESSION_HOST_VARIABLE } from '../core/store/process-tree/protocol.js';
import { scopeIncomingRequests } from './scope-incoming-requests.js';

/** What the Nuxt module writes into the server build (nuxt.config is read at build time). */
export interface NitroHarnessSettings {
  scenariosFile: string;
  dev: boolean;
  /** `harness.enabled` from nuxt.config; undefined: HARNESS_ENABLED=true where the server runs. */
  enabled: boolean | undefined;
  options: Omit<HarnessOptions, 'enabled' | 'scenarios'>;
}

/** A Nitro plugin: Nitro calls it with its app. */
export type NitroHarnessPlugin = (nitroApp: unknown) => void;

/**
 * The Nitro plugin the Nuxt module adds (internal: its generated code calls this). Creates the
 * harness from the scenarios module, starts it (awaited before the server listens) and scopes
 * every request of the process's node:http servers. In `nuxt dev` the sessions are those of
 * the nuxt process, which keeps them across Nitro's worker restarts.
 * @internal
 */
export async function startNitroHarness(source: { scenarios?: unknown; default?: unknown }, settings: NitroHarnessSettings): Promise<NitroHarnessPlugin> {
  const scenarios = source.scenarios ?? source.default;
  if (typeof scenarios !== 'object' || scenarios === null) {
    throw new HarnessError('INVALID_OPTIONS', `scenario-harness/nuxt: ${settings.scenariosFile} exports no scenarios. Export them as \`export const scenarios = defineScenarios({ ... })\` or as its default export.`);
  }
  const enabled = settings.enabled ?? process.env.HARNESS_ENABLED === 'true';
  const host = settings.dev && enabled ? process.env[SESSION_HOST_VARIABLE] : undefined;
  const token = settings.options.access === undefined ? process.env.HARNESS_TOKEN : undefined;
  const harness = createHarness({
    ...settings.options,
    enabled,
    scenarios: scenarios as ScenarioMap,
    ...(host === undefined ? {} : { store: joinSessions(host) }),
    ...(token ? { access: { token } } : {}),
  });
  await harness.start();
  scopeIncomingRequests(harness);
  // @note Not stopped on Nitro's `close` hook: the process (or the dev worker Nitro replaces after
  // an edit) ends anyway, and a request still in flight there must keep its mocks; stopped, its
  // calls would go to the real network.
  return () => {};
}
