/**
 * Astro apps on every major in test-runtimes.json: built with `astro build` (@astrojs/node,
 * standalone) and served with `node dist/server/entry.mjs`, or served by `astro dev`, on a free
 * loopback port.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { binOf, ensureAppBuild, frameworkEnv, frameworkTargets, installFramework, prepareDevCopy, type FrameworkTarget, type SharedFiles } from './framework-install.js';
import { startServerGroup, type ServerGroup } from '../../support/start-server-group.js';

/** Every Astro major in test-runtimes.json, newest first. */
export const ASTRO_TARGETS: readonly FrameworkTarget[] = frameworkTargets('astro', 'Astro', ['astro', '@astrojs/node']);

/** The astro CLI the major installed, as its package.json's `bin` names it (`astro.js` in Astro 5, `bin/astro.mjs` from 6). */
function astroBin(target: FrameworkTarget): string {
  const dir = binOf(target, 'astro');
  const { bin } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { bin: string | Record<string, string> };
  const path = typeof bin === 'string' ? bin : bin.astro;
  if (path === undefined) throw new Error(`${join(dir, 'package.json')} names no \`astro\` in its "bin": cannot start the astro CLI of ${target.label}.`);
  return join(dir, path);
}

/** No telemetry from a test run, and no check for a newer Astro (a call the harness would answer as unmocked). */
const QUIET = { ASTRO_TELEMETRY_DISABLED: '1', ASTRO_DISABLE_UPDATE_CHECK: 'true' };

/** The app in `source` (named `name` beside the installation), ready for `mode`: built, or a fresh dev copy. */
export async function prepareAstroApp(target: FrameworkTarget, mode: 'dev' | 'production', source: string, name: string, shared: SharedFiles = {}): Promise<string> {
  if (mode === 'dev') return prepareDevCopy(target, source, name, shared);
  // Installed first: the build's command is the CLI the installed astro names.
  await installFramework(target);
  return ensureAppBuild(target, { source, name, build: [astroBin(target), 'build'], env: QUIET, shared });
}

/**
 * `astro dev` (`mode: 'dev'`) or the standalone build (`node dist/server/entry.mjs`) of the app
 * in `dir` on a free loopback port with `env`, resolving once it printed its address. frameworkEnv
 * leaves out the runner's VITEST* variables, without which Astro 7's dev server skips its own
 * request handler.
 */
export async function startAstro(target: FrameworkTarget, mode: 'dev' | 'production', dir: string, env: Record<string, string>): Promise<ServerGroup> {
  const args = mode === 'dev' ? [astroBin(target), 'dev', '--host', '127.0.0.1', '--port', '0'] : ['dist/server/entry.mjs'];
  const modeEnv = mode === 'dev' ? QUIET : { ...QUIET, HOST: '127.0.0.1', PORT: '0' };
  // astro dev prints `Local    http://127.0.0.1:<port>/`, the standalone server `Server listening on http://127.0.0.1:<port>`.
  const ready = mode === 'dev' ? /Local\s+(http:\/\/127\.0\.0\.1:\d+)/ : /Server listening on (http:\/\/127\.0\.0\.1:\d+)/;
  return startServerGroup({
    args,
    cwd: dir,
    env: frameworkEnv({ ...modeEnv, ...env }),
    readyAt: (output) => ready.exec(output)?.[1],
    what: mode === 'dev' ? 'astro dev' : 'node dist/server/entry.mjs',
  });
}
