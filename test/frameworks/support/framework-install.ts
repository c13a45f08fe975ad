/**
 * Framework majors installed outside the repository, the way an app installs them: the exact
 * versions pinned in test-runtimes.json, from the npm registry, once per version set, into
 * `~/.cache/scenario-harness/frameworks/` (SCENARIO_HARNESS_CACHE overrides); the built package
 * copied into that folder's node_modules whenever `dist/` changed; app folders beside it (a build
 * kept while its inputs are the same, a fresh copy per run for a dev server).
 */
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isAlive, withLock } from '../../support/cross-process-lock.js';
import { runCommand } from '../../support/run-command.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const cacheRoot = process.env.SCENARIO_HARNESS_CACHE ?? join(homedir(), '.cache', 'scenario-harness');
/** What installs, builds and dev servers write into an app folder: never copied, never hashed. */
const GENERATED = new Set(['node_modules', '.svelte-kit', 'build', 'dist', '.astro', '.react-router', '.nuxt', '.output', '.next', '.scenario-harness-build.json']);

/** One major's entry in test-runtimes.json. */
interface MajorVersions {
  /** The Node versions the major's packages run on, as `>=major.minor[.patch]` (their engines). */
  node: string;
  /** The exact versions installed. */
  packages: Record<string, string>;
}

const runtimes = JSON.parse(readFileSync(join(ROOT, 'test-runtimes.json'), 'utf8')) as Record<string, unknown> & { node: string[] };
const rootPackage = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };

/** One major of a framework, installed outside the repository. */
export interface FrameworkTarget {
  /** `SvelteKit 3 (@sveltejs/kit 3.2.0, vite 8.3.8)`: shown in test names. */
  label: string;
  /** The major, as test-runtimes.json names it (`"3"`). */
  major: string;
  /** The exact versions installed (test-runtimes.json). */
  packages: Readonly<Record<string, string>>;
  /** Why this Node cannot run the major, naming the Node versions that can; undefined when it can. */
  skip: string | undefined;
  /** The folder its packages are installed in (the app folders sit inside it). */
  home: string;
}

/** Whether `version` (`22.23.3`) is at least the `>=major.minor[.patch]` in `range`. */
export function satisfies(version: string, range: string): boolean {
  const minimum = /^>=(\d+)\.(\d+)(?:\.(\d+))?$/.exec(range);
  if (minimum === null) throw new Error(`test-runtimes.json: expected a framework major's "node" to read ">=major.minor", instead got ${JSON.stringify(range)}.`);
  const [major = 0, minor = 0, patch = 0] = version.split('.').map(Number);
  const [wantMajor, wantMinor, wantPatch] = [Number(minimum[1]), Number(minimum[2]), Number(minimum[3] ?? 0)];
  return major !== wantMajor ? major > wantMajor : minor !== wantMinor ? minor > wantMinor : patch >= wantPatch;
}

/**
 * Every major of `framework` in test-runtimes.json (`{ "<major>": { node, packages } }`), newest
 * first. `name` is shown in labels (`SvelteKit`); `shown` are the packages whose versions the label names.
 */
export function frameworkTargets(framework: string, name: string, shown: readonly string[]): FrameworkTarget[] {
  const entry = runtimes[framework];
  if (typeof entry !== 'object' || entry === null) throw new Error(`test-runtimes.json has no "${framework}" entry: add its majors as { "<major>": { "node": ">=x.y", "packages": { ... } } }.`);
  return Object.entries(entry as Record<string, MajorVersions | string>)
    .filter((pair): pair is [string, MajorVersions] => typeof pair[1] === 'object')
    .sort(([a], [b]) => Number(b) - Number(a))
    .map(([major, { node, packages }]) => {
      const dependencies = { ...rootPackage.dependencies, ...packages };
      const lines = runtimes.node.filter((version) => satisfies(version, node));
      const main = packages[shown[0]!];
      return {
        label: `${name} ${major} (${shown.map((pkg) => `${pkg} ${packages[pkg]}`).join(', ')})`,
        major,
        packages,
        skip: satisfies(process.versions.node, node)
          ? undefined
          : `${name} ${major} needs Node ${node} and this is Node ${process.versions.node}; it runs on Node ${lines.join(', ')} (test-runtimes.json)`,
        home: join(cacheRoot, 'frameworks', `${framework}-${main}-${createHash('sha256').update(JSON.stringify(dependencies)).digest('hex').slice(0, 8)}`),
      };
    });
}

/** A file the target installed, e.g. `binOf(target, 'vite/bin/vite.js')`. */
export const binOf = (target: FrameworkTarget, path: string): string => join(target.home, 'node_modules', path);

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

/** A hash of the built package: what an app folder's copy of it, and a build that bundles it, depend on. */
const packageKey = () => hashOf([...filesUnder(join(ROOT, 'dist')), join(ROOT, 'package.json'), join(ROOT, 'schema.json')], ROOT);

/**
 * The environment of a framework's CLI, as a developer's shell has it: no HARNESS_*, NODE_OPTIONS
 * or NODE_ENV of the runner's (vitest sets `test`; the CLI chooses), and no VITEST* (Astro 7's dev
 * server takes `VITEST` for "running inside Vitest" and skips its own request handler).
 */
export function frameworkEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('HARNESS_') && !name.startsWith('VITEST')));
  delete env.NODE_ENV;
  delete env.NODE_OPTIONS;
  return { ...env, ...extra };
}

/**
 * The major's packages and the package's own dependencies, installed from the npm registry once
 * per version set (into a staging folder, then renamed), and the built package copied into its
 * node_modules whenever the build changed, so `scenario-harness` resolves from the app folders
 * as in an app that installed it.
 */
export async function installFramework(target: FrameworkTarget): Promise<void> {
  if (!existsSync(join(ROOT, 'dist', 'index.js'))) {
    throw new Error(`${join(ROOT, 'dist')} is missing: run \`npm run build\` first (npm test builds before vitest). Framework apps load scenario-harness from the built package.`);
  }
  await withLock('framework', target.home, async () => {
    const marker = join(target.home, '.installed');
    if (!existsSync(marker)) {
      const staging = `${target.home}.installing-${process.pid}`;
      rmSync(staging, { recursive: true, force: true });
      mkdirSync(staging, { recursive: true });
      const dependencies = { ...rootPackage.dependencies, ...target.packages };
      writeFileSync(join(staging, 'package.json'), JSON.stringify({ name: basename(target.home), private: true, dependencies }, null, 2));
      await runCommand('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts'], staging, frameworkEnv());
      writeFileSync(join(staging, '.installed'), JSON.stringify(dependencies));
      rmSync(target.home, { recursive: true, force: true });
      renameSync(staging, target.home);
    }
    const installed = join(target.home, 'node_modules', 'scenario-harness');
    const copied = join(installed, '.copied-from');
    const key = packageKey();
    if (existsSync(copied) && readFileSync(copied, 'utf8') === key) return;
    rmSync(installed, { recursive: true, force: true });
    mkdirSync(installed, { recursive: true });
    for (const name of ['package.json', 'schema.json', 'dist']) cpSync(join(ROOT, name), join(installed, name), { recursive: true });
    writeFileSync(copied, key);
  });
}

/** Files or folders fixture apps share (the scenarios module, one app's routes), copied into it: destination in the app → source. */
export type SharedFiles = Readonly<Record<string, string>>;

function copyApp(source: string, dir: string, shared: SharedFiles): void {
  rmSync(dir, { recursive: true, force: true });
  cpSync(source, dir, { recursive: true, filter: (path) => !GENERATED.has(basename(path)) });
  for (const [to, from] of Object.entries(shared)) cpSync(from, join(dir, to), { recursive: true });
}

export interface AppBuild {
  /** The app's sources (a fixture folder). */
  source: string;
  /** The app folder's name inside the target's home (`app`, `wired-app`): one per fixture. */
  name: string;
  /** Node's arguments for the build, run in the app folder, e.g. `[binOf(target, 'vite/bin/vite.js'), 'build']`. */
  build: string[];
  /** Extra environment for the build. */
  env?: Record<string, string | undefined>;
  /** Whether the build may bundle scenario-harness (an app that imports it): then a new `dist/` rebuilds it. Default true. */
  bundlesPackage?: boolean;
  /** Shared files copied into the app (destination in the app → source). */
  shared?: SharedFiles;
}

/**
 * The app built in `<home>/<name>`, once for every test file that needs it: kept while a hash of
 * its inputs (the app's sources, the major's versions, and the package when the build may bundle
 * it) is the same, a lock making concurrent test files wait for one build. Returns the folder.
 */
export async function ensureAppBuild(target: FrameworkTarget, { source, name, build, env = {}, bundlesPackage = true, shared = {} }: AppBuild): Promise<string> {
  await installFramework(target);
  const dir = join(target.home, name);
  const marker = join(dir, '.scenario-harness-build.json');
  const key = hashOf([...filesUnder(source), ...Object.values(shared).flatMap((from) => (statSync(from).isDirectory() ? filesUnder(from) : [from]))], source, JSON.stringify([target.packages, build.slice(1), env, shared, bundlesPackage ? packageKey() : '']));
  const isBuilt = () => existsSync(marker) && (JSON.parse(readFileSync(marker, 'utf8')) as { key?: string }).key === key;
  if (isBuilt()) return dir;
  await withLock('framework', dir, async () => {
    if (isBuilt()) return;
    copyApp(source, dir, shared);
    await runCommand(process.execPath, build, dir, frameworkEnv(env));
    writeFileSync(marker, JSON.stringify({ key }));
  });
  return dir;
}

/**
 * A fresh copy of the app in `source` for a dev server (`<home>/<name>-dev-<pid>`), so the
 * edits a test makes never touch the build or the sources. Returns its folder; remove it when
 * done. Copies left behind by runs that died are removed here.
 */
export async function prepareDevCopy(target: FrameworkTarget, source: string, name: string, shared: SharedFiles = {}): Promise<string> {
  await installFramework(target);
  const prefix = `${name}-dev-`;
  for (const entry of readdirSync(target.home)) {
    const pid = entry.startsWith(prefix) ? Number(entry.slice(prefix.length)) : NaN;
    if (Number.isInteger(pid) && pid > 0 && !isAlive(pid)) rmSync(join(target.home, entry), { recursive: true, force: true });
  }
  const dir = join(target.home, `${prefix}${process.pid}`);
  copyApp(source, dir, shared);
  return dir;
}
