/**
 * Nuxt apps on every major in test-runtimes.json: built with `nuxt build` and served with
 * `node .output/server/index.mjs`, or served by `nuxt dev`, on a free loopback port.
 */
import { vi } from 'vitest';
import { binOf, ensureAppBuild, frameworkEnv, frameworkTargets, prepareDevCopy, type FrameworkTarget, type SharedFiles } from './framework-install.js';
import { startServerGroup, type ServerGroup } from '../../support/start-server-group.js';

/** Every Nuxt major in test-runtimes.json, newest first. */
export const NUXT_TARGETS: readonly FrameworkTarget[] = frameworkTargets('nuxt', 'Nuxt', ['nuxt', 'vue', 'vue-router']);

const nuxtBin = (target: FrameworkTarget) => binOf(target, 'nuxt/bin/nuxt.mjs');

/** Nuxt asks whether it may collect telemetry on a first run: not here. */
const QUIET = { NUXT_TELEMETRY_DISABLED: '1' };

/**
 * The runner's VITEST* and TEST variables, removed: under them Nuxt (std-env's `isTest`) takes
 * itself for a test run, builds with `import.meta.test`, and `nuxt dev` prints nothing, not even its address.
 */
const NOT_A_TEST_RUN = Object.fromEntries(Object.keys(process.env).filter((name) => name === 'TEST' || name.startsWith('VITEST')).map((name) => [name, undefined]));

/** The app in `source` (named `name` beside the installation), ready for `mode`: built (without the harness switched on), or a fresh dev copy. */
export function prepareNuxtApp(target: FrameworkTarget, mode: 'dev' | 'production', source: string, name: string, shared: SharedFiles = {}): Promise<string> {
  return mode === 'dev' ? prepareDevCopy(target, source, name, shared) : ensureAppBuild(target, { source, name, build: [nuxtBin(target), 'build'], env: { ...QUIET, ...NOT_A_TEST_RUN }, shared });
}

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;

/**
 * `nuxt dev` (`mode: 'dev'`) or the built server (`node .output/server/index.mjs`) of the app in
 * `dir` on a free loopback port with `env`, resolving once it serves. Its output comes without
 * ANSI colours. `nuxt dev` prints its address before Nitro's worker is built: with the harness
 * on, it serves once the harness answers its scenario list.
 */
export async function startNuxt(target: FrameworkTarget, mode: 'dev' | 'production', dir: string, env: Record<string, string>): Promise<ServerGroup> {
  const args = mode === 'dev' ? [nuxtBin(target), 'dev', '--host', '127.0.0.1', '--port', '0'] : ['.output/server/index.mjs'];
  const modeEnv = mode === 'dev' ? QUIET : { HOST: '127.0.0.1', PORT: '0' };
  // nuxt dev prints `Local:    http://127.0.0.1:<port>/`, Nitro's node server `Listening on http://127.0.0.1:<port>`.
  const ready = mode === 'dev' ? /Local:\s+(http:\/\/127\.0\.0\.1:\d+)/ : /Listening on (http:\/\/127\.0\.0\.1:\d+)/;
  const started = await startServerGroup({
    args,
    cwd: dir,
    env: frameworkEnv({ ...modeEnv, ...env, ...NOT_A_TEST_RUN }),
    readyAt: (output) => ready.exec(output.replace(ANSI, ''))?.[1],
    what: mode === 'dev' ? 'nuxt dev' : 'node .output/server/index.mjs',
  });
  const server = { ...started, output: () => started.output().replace(ANSI, '') };
  if (mode === 'dev' && env.HARNESS_ENABLED === 'true') {
    await vi.waitFor(async () => {
      const response = await fetch(server.url('/__harness__/scenarios'), { signal: AbortSignal.timeout(10_000) });
      if (response.status !== 200) throw new Error(`nuxt dev answered ${response.status} while Nitro builds`);
    }, { timeout: 120_000, interval: 250 });
  }
  return server;
}
