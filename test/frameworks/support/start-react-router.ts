/**
 * React Router apps (framework mode) on every major in test-runtimes.json: built with
 * `react-router build` and served with `react-router-serve ./build/server/index.js`, or served by
 * `react-router dev`, on a loopback port.
 */
import { readFileSync } from 'node:fs';
import { binOf, ensureAppBuild, frameworkEnv, frameworkTargets, installFramework, prepareDevCopy, type FrameworkTarget, type SharedFiles } from './framework-install.js';
import { freePort } from '../../support/free-port.js';
import { startServerGroup, type ServerGroup } from '../../support/start-server-group.js';

/** Every React Router major in test-runtimes.json, newest first. */
export const REACT_ROUTER_TARGETS: readonly FrameworkTarget[] = frameworkTargets('react-router', 'React Router', ['react-router', 'vite']);

/** The file a package's bin runs (`react-router` is `bin.js` in 7, `bin.cjs` in 8). */
function binFile(target: FrameworkTarget, pkg: string, bin: string): string {
  const manifest = JSON.parse(readFileSync(binOf(target, `${pkg}/package.json`), 'utf8')) as { bin: Record<string, string> };
  return binOf(target, `${pkg}/${manifest.bin[bin]}`);
}

/**
 * The app in `source` (named `name` beside the installation), ready for `mode`: built, or a
 * fresh dev copy. The server build imports scenario-harness from node_modules (Vite leaves a
 * package in node_modules out of an SSR build), so a new `dist/` needs no new build.
 */
export async function prepareReactRouterApp(target: FrameworkTarget, mode: 'dev' | 'production', source: string, name: string, shared: SharedFiles = {}): Promise<string> {
  if (mode === 'dev') return prepareDevCopy(target, source, name, shared);
  // Installed first: the build's command is the CLI the installed @react-router/dev names (a new
  // install, after the package's dependencies changed, has none until then).
  await installFramework(target);
  return ensureAppBuild(target, { source, name, build: [binFile(target, '@react-router/dev', 'react-router'), 'build'], bundlesPackage: false, shared });
}

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;

/**
 * `react-router dev` (`mode: 'dev'`; React Router 8 restarts it in a child process with
 * `--conditions=development`) or `react-router-serve ./build/server/index.js` of the app in
 * `dir` on loopback with `env`, resolving once it printed its address. Its output comes without
 * ANSI colours.
 */
export async function startReactRouter(target: FrameworkTarget, mode: 'dev' | 'production', dir: string, env: Record<string, string>): Promise<ServerGroup> {
  const args =
    mode === 'dev'
      ? [binFile(target, '@react-router/dev', 'react-router'), 'dev', '--host', '127.0.0.1', '--port', '0']
      : [binFile(target, '@react-router/serve', 'react-router-serve'), './build/server/index.js'];
  const modeEnv = mode === 'dev' ? {} : { HOST: '127.0.0.1', PORT: String(await freePort()) };
  // Vite prints `Local:   http://127.0.0.1:<port>/`, react-router-serve `[react-router-serve] http://localhost:<port> (http://127.0.0.1:<port>)`.
  const ready = mode === 'dev' ? /Local:\s+(http:\/\/127\.0\.0\.1:\d+)/ : /\[react-router-serve\] .*\((http:\/\/127\.0\.0\.1:\d+)\)/;
  const server = await startServerGroup({
    args,
    cwd: dir,
    env: frameworkEnv({ ...modeEnv, ...env }),
    readyAt: (output) => ready.exec(output.replace(ANSI, ''))?.[1],
    what: mode === 'dev' ? 'react-router dev' : 'react-router-serve ./build/server/index.js',
  });
  return { ...server, output: () => server.output().replace(ANSI, '') };
}
