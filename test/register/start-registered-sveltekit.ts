import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isAlive, withLock } from '../support/cross-process-lock.js';
import { runCommand } from '../support/run-command.js';
import { startServerGroup, type ServerGroup } from '../support/start-server-group.js';
import { cleanEnv } from './start-registered-app.js';

/** The SvelteKit app every major serves: plain JavaScript, no line of scenario-harness. */
export const SVELTEKIT_APP = fileURLToPath(new URL('./fixtures/sveltekit-app/', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** What the install, `vite build` and `vite dev` write into an app folder: never copied, never hashed. */
const GENERATED = new Set(['node_modules', '.svelte-kit', 'build', '.scenario-harness-build.json']);
const cacheRoot = process.env.SCENARIO_HARNESS_CACHE ?? join(homedir(), '.cache', 'scenario-harness');

interface MajorVersions {
  /** The Node versions the major's packages run on, as `>=major.minor` (their engines). */
  node: string;
  /** The exact versions installed: @sveltejs/kit, its adapter-node, vite-plugin-svelte, Svelte and Vite. */
  packages: Record<string, string>;
}

const runtimes = JSON.parse(readFileSync(join(ROOT, 'test-runtimes.json'), 'utf8')) as { node: string[]; sveltekit: Record<string, MajorVersions | string> };
const rootPackage = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };

/** One SvelteKit major, installed outside the repository. */
export interface SvelteKitTarget {
  /** `SvelteKit 3 (@sveltejs/kit 3.2.0, Vite 8.3.8)`: shown in test names. */
  label: string;
  /** The exact versions installed (test-runtimes.json). */
  packages: Readonly<Record<string, string>>;
  /** Why this Node cannot run the major, naming the Node versions that can; undefined when it can. */
  skip: string | undefined;
  /** The folder its packages are installed in (the app folders sit inside it). */
  home: string;
}

/** Whether `version` (`20.19.2`) is at least the `>=major.minor[.patch]` in `range`. */
function satisfies(version: string, range: string): boolean {
  const minimum = /^>=(\d+)\.(\d+)(?:\.(\d+))?$/.exec(range);
  if (minimum === null) throw new Error(`test-runtimes.json: expected a SvelteKit major's "node" to read ">=major.minor", instead got ${JSON.stringify(range)}.`);
  const [major = 0, minor = 0, patch = 0] = version.split('.').map(Number);
  const [wantMajor, wantMinor, wantPatch] = [Number(minimum[1]), Number(minimum[2]), Number(minimum[3] ?? 0)];
  return major !== wantMajor ? major > wantMajor : minor !== wantMinor ? minor > wantMinor : patch >= wantPatch;
}

function targetOf(major: string, { node, packages }: MajorVersions): SvelteKitTarget {
  const dependencies = { ...rootPackage.dependencies, ...packages };
  const kit = packages['@sveltejs/kit']!;
  const lines = runtimes.node.filter((version) => satisfies(version, node));
  return {
    label: `SvelteKit ${major} (@sveltejs/kit ${kit}, Vite ${packages.vite})`,
    packages,
    skip: satisfies(process.versions.node, node)
      ? undefined
      : `SvelteKit ${major} needs Node ${node} and this is Node ${process.versions.node}; it runs on Node ${lines.join(', ')} (test-runtimes.json)`,
    home: join(cacheRoot, 'frameworks', `sveltekit-${kit}-${createHash('sha256').update(JSON.stringify(dependencies)).digest('hex').slice(0, 8)}`),
  };
}

/** Every SvelteKit major in test-runtimes.json, newest first. */
export const SVELTEKIT_TARGETS: readonly SvelteKitTarget[] = Object.entries(runtimes.sveltekit)
  .filter((entry): entry is [string, MajorVersions] => typeof entry[1] === 'object')
  .sort(([a], [b]) => Number(b) - Number(a))
  .map(([major, versions]) => targetOf(major, versions));

const viteBin = (target: SvelteKitTarget) => join(target.home, 'node_modules', 'vite', 'bin', 'vite.js');

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (GENERATED.has(entry.name)) return [];
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : [path];
  });
}

function hashOf(files: string[], base: string, extra = ''): string {
  const hash = createHash('sha256').update(extra);
  for (const file of files.sort()) hash.update(relative(base, file)).update('\0').update(readFileSync(file)).update('\0');
  return hash.digest('hex');
}





/**
 * The major's packages and the package's own dependencies, installed from the npm registry once
 * per version set (into a staging folder, then renamed), and the built package copied into its
 * node_modules whenever the build changed, so `--import scenario-harness/register` resolves from
 * the app folders as in an app that installed it.
 */
async function prepareInstall(target: SvelteKitTarget): Promise<void> {
  if (!existsSync(join(ROOT, 'dist', 'register', 'index.js'))) {
    throw new Error(`${join(ROOT, 'dist')} is missing: run \`npm run build\` first (npm test builds before vitest). The SvelteKit apps load scenario-harness/register from the built package.`);
  }
  await withLock('sveltekit', target.home, async () => {
    if (!existsSync(viteBin(target))) {
      const staging = `${target.home}.installing-${process.pid}`;
      rmSync(staging, { recursive: true, force: true });
      mkdirSync(staging, { recursive: true });
      const dependencies = { ...rootPackage.dependencies, ...target.packages };
      writeFileSync(join(staging, 'package.json'), JSON.stringify({ name: basename(target.home), private: true, dependencies }, null, 2));
      await runCommand('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts'], staging, cleanEnv({ NODE_OPTIONS: undefined }));
      rmSync(target.home, { recursive: true, force: true });
      renameSync(staging, target.home);
    }
    const installed = join(target.home, 'node_modules', 'scenario-harness');
    const copied = join(installed, '.copied-from');
    const key = hashOf([...filesUnder(join(ROOT, 'dist')), join(ROOT, 'package.json'), join(ROOT, 'schema.json')], ROOT);
    if (existsSync(copied) && readFileSync(copied, 'utf8') === key) return;
    rmSync(installed, { recursive: true, force: true });
    mkdirSync(installed, { recursive: true });
    for (const name of ['package.json', 'schema.json', 'dist']) cpSync(join(ROOT, name), join(installed, name), { recursive: true });
    writeFileSync(copied, key);
  });
}

function copyApp(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  cpSync(SVELTEKIT_APP, dir, { recursive: true, filter: (path) => !GENERATED.has(basename(path)) });
}

/** The environment of the SvelteKit CLI: no HARNESS_* or NODE_OPTIONS of the runner's, no NODE_ENV (vitest sets `test`; Vite chooses). */
const appEnv = (extra: Record<string, string | undefined>) => cleanEnv({ NODE_ENV: undefined, NODE_OPTIONS: undefined, ...extra });

/**
 * The app built with `vite build` (adapter-node) in `<home>/app`, once for every test file that
 * needs it: kept while a hash of its inputs (the app's sources and the major's versions) is the
 * same, a lock making concurrent test files wait for one build. Returns the app's folder.
 */
export async function ensureSvelteKitBuild(target: SvelteKitTarget): Promise<string> {
  await prepareInstall(target);
  const dir = join(target.home, 'app');
  const marker = join(dir, '.scenario-harness-build.json');
  const key = hashOf(filesUnder(SVELTEKIT_APP), SVELTEKIT_APP, JSON.stringify(target.packages));
  const isBuilt = () => existsSync(marker) && (JSON.parse(readFileSync(marker, 'utf8')) as { key?: string }).key === key;
  if (isBuilt()) return dir;
  await withLock('sveltekit', dir, async () => {
    if (isBuilt()) return;
    copyApp(dir);
    await runCommand(process.execPath, [viteBin(target), 'build'], dir, appEnv({}));
    writeFileSync(marker, JSON.stringify({ key }));
  });
  return dir;
}

/**
 * A fresh copy of the app for `vite dev` (`<home>/dev-<pid>`), so the edits a test makes never
 * touch the build or the sources. Returns its folder; remove it when done. Copies left behind by
 * runs that died are removed here.
 */
export async function prepareSvelteKitDevCopy(target: SvelteKitTarget): Promise<string> {
  await prepareInstall(target);
  for (const entry of readdirSync(target.home)) {
    const pid = Number(/^dev-(\d+)$/.exec(entry)?.[1]);
    if (Number.isInteger(pid) && pid > 0 && !isAlive(pid)) rmSync(join(target.home, entry), { recursive: true, force: true });
  }
  const dir = join(target.home, `dev-${process.pid}`);
  copyApp(dir);
  return dir;
}

/** A SvelteKit server under register: its process group, its output without ANSI colours. */
export type RegisteredSvelteKit = ServerGroup;

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;

/**
 * `vite dev` (`mode: 'dev'`) or the adapter-node build (`node build/index.js`) of the app in
 * `dir` on a free loopback port, with the harness attached through the environment only:
 * `NODE_OPTIONS=--import=scenario-harness/register` and `env` (the HARNESS_* settings).
 * Resolves once the server printed its address. In production, adapter-node takes the origin from
 * `PROTOCOL_HEADER` (`x-forwarded-proto`, as behind a proxy): without it SvelteKit assumes https,
 * and refuses a form post from `http://` as cross-site.
 */
export async function startSvelteKitWithRegister(target: SvelteKitTarget, mode: 'dev' | 'production', dir: string, env: Record<string, string>): Promise<RegisteredSvelteKit> {
  const args = mode === 'dev' ? [viteBin(target), 'dev', '--host', '127.0.0.1', '--port', '0'] : ['build/index.js'];
  const modeEnv = mode === 'dev' ? {} : { HOST: '127.0.0.1', PORT: '0', PROTOCOL_HEADER: 'x-forwarded-proto' };
  // Vite prints `Local:   http://127.0.0.1:<port>/` (Vite 7 takes port 0 as "from 5173 up"), adapter-node `Listening on http://127.0.0.1:<port>`.
  const ready = mode === 'dev' ? /Local:\s+(http:\/\/127\.0\.0\.1:\d+)/ : /Listening on (http:\/\/127\.0\.0\.1:\d+)/;
  const server = await startServerGroup({
    args,
    cwd: dir,
    env: appEnv({ NODE_OPTIONS: '--import=scenario-harness/register', ...modeEnv, ...env }),
    readyAt: (output) => ready.exec(output.replace(ANSI, ''))?.[1],
    what: mode === 'dev' ? 'vite dev' : 'node build/index.js',
  });
  return { ...server, output: () => server.output().replace(ANSI, '') };
}
