/**
 * Astro apps on every major in test-runtimes.json: built with `astro build` (@astrojs/node,
 * standalone) and served with `node dist/server/entry.mjs`, or served by `astro dev`, on a free
 * loopback port.
 */
import { binOf, ensureAppBuild, frameworkEnv, frameworkTargets, prepareDevCopy, type FrameworkTarget, type SharedFiles } from './framework-install.js';
import { startServerGroup, type ServerGroup } from '../../support/start-server-group.js';

/** Every Astro major in test-runtimes.json, newest first. */
export const ASTRO_TARGETS: readonly FrameworkTarget[] = frameworkTargets('astro', 'Astro', ['astro', '@astrojs/node']);

const astroBin = (target: FrameworkTarget) => binOf(target, 'astro/bin/astro.mjs');

/** No telemetry from a test run, and no check for a newer Astro (a call the harness would answer as unmocked). */
const QUIET = { ASTRO_TELEMETRY_DISABLED: '1', ASTRO_DISABLE_UPDATE_CHECK: 'true' };

/** The app in `source` (named `name` beside the installation), ready for `mode`: built, or a fresh dev copy. */
export function prepareAstroApp(target: FrameworkTarget, mode: 'dev' | 'production', source: string, name: string, shared: SharedFiles = {}): Promise<string> {
  return mode === 'dev' ? prepareDevCopy(target, source, name, shared) : ensureAppBuild(target, { source, name, build: [astroBin(target), 'build'], env: QUIET, shared });
}

/**
 * Without the runner's VITEST* variables: Astro 7's dev server sees `VITEST` as "running inside
 * Vitest" and skips its own request handler (astro/dist/vite-plugin-astro-server/plugin.js), so
 * requests would never reach the app's middleware.
 */
function withoutVitest(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !name.startsWith('VITEST')));
}

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;

/**
 * `astro dev` (`mode: 'dev'`) or the standalone build (`node dist/server/entry.mjs`) of the app
 * in `dir` on a free loopback port with `env`, resolving once it printed its address. Its output
 * comes without ANSI colours.
 */
export async function startAstro(target: FrameworkTarget, mode: 'dev' | 'production', dir: string, env: Record<string, string>): Promise<ServerGroup> {
  const args = mode === 'dev' ? [astroBin(target), 'dev', '--host', '127.0.0.1', '--port', '0'] : ['dist/server/entry.mjs'];
  const modeEnv = mode === 'dev' ? QUIET : { ...QUIET, HOST: '127.0.0.1', PORT: '0' };
  // astro dev prints `Local    http://127.0.0.1:<port>/`, the standalone server `Server listening on http://127.0.0.1:<port>`.
  const ready = mode === 'dev' ? /Local\s+(http:\/\/127\.0\.0\.1:\d+)/ : /Server listening on (http:\/\/127\.0\.0\.1:\d+)/;
  const server = await startServerGroup({
    args,
    cwd: dir,
    env: withoutVitest(frameworkEnv({ ...modeEnv, ...env })),
    readyAt: (output) => ready.exec(output.replace(ANSI, ''))?.[1],
    what: mode === 'dev' ? 'astro dev' : 'node dist/server/entry.mjs',
  });
  return { ...server, output: () => server.output().replace(ANSI, '') };
}
