/**
 * SvelteKit apps on every major in test-runtimes.json: built with `vite build` (adapter-node) and
 * served with `node build/index.js`, or served by `vite dev`, on a free loopback port.
 */
import { binOf, ensureAppBuild, frameworkEnv, frameworkTargets, prepareDevCopy, type FrameworkTarget, type SharedFiles } from './framework-install.js';
import { startServerGroup, type ServerGroup } from '../../support/start-server-group.js';

/** Every SvelteKit major in test-runtimes.json, newest first. */
export const SVELTEKIT_TARGETS: readonly FrameworkTarget[] = frameworkTargets('sveltekit', 'SvelteKit', ['@sveltejs/kit', 'vite']);

const viteBin = (target: FrameworkTarget) => binOf(target, 'vite/bin/vite.js');

/** The app in `source` (named `name` beside the installation), ready for `mode`: built, or a fresh dev copy. */
export function prepareSvelteKitApp(target: FrameworkTarget, mode: 'dev' | 'production', source: string, name: string, shared: SharedFiles = {}): Promise<string> {
  return mode === 'dev' ? prepareDevCopy(target, source, name, shared) : ensureAppBuild(target, { source, name, build: [viteBin(target), 'build'], shared });
}

/**
 * `vite dev` (`mode: 'dev'`) or the adapter-node build (`node build/index.js`) of the app in
 * `dir` on a free loopback port with `env`, resolving once it printed its address. In production, adapter-node takes the origin from
 * `PROTOCOL_HEADER` (`x-forwarded-proto`, as behind a proxy): without it SvelteKit assumes https,
 * and refuses a form post from `http://` as cross-site.
 */
export async function startSvelteKit(target: FrameworkTarget, mode: 'dev' | 'production', dir: string, env: Record<string, string>): Promise<ServerGroup> {
  const args = mode === 'dev' ? [viteBin(target), 'dev', '--host', '127.0.0.1', '--port', '0'] : ['build/index.js'];
  const modeEnv = mode === 'dev' ? {} : { HOST: '127.0.0.1', PORT: '0', PROTOCOL_HEADER: 'x-forwarded-proto' };
  // Vite prints `Local:   http://127.0.0.1:<port>/` (Vite 7 takes port 0 as "from 5173 up"), adapter-node `Listening on http://127.0.0.1:<port>`.
  const ready = mode === 'dev' ? /Local:\s+(http:\/\/127\.0\.0\.1:\d+)/ : /Listening on (http:\/\/127\.0\.0\.1:\d+)/;
  return startServerGroup({
    args,
    cwd: dir,
    env: frameworkEnv({ ...modeEnv, ...env }),
    readyAt: (output) => ready.exec(output)?.[1],
    what: mode === 'dev' ? 'vite dev' : 'node build/index.js',
  });
}
