/**
 * An app that has already installed its framework and locked it, as a user's app has when they
 * add scenario-harness to it: `npm install <framework>@<exact>` writes `^<exact>` into its
 * package.json and locks `<exact>`. Each app is installed from the npm registry once per version
 * set into `~/.cache/scenario-harness/locked-apps/` (SCENARIO_HARNESS_CACHE moves the cache) and
 * copied for every run, so the copy the package is installed into starts from the same lockfile.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { withLock } from '../../support/cross-process-lock.js';

const run = promisify(execFile);
const cacheRoot = process.env.SCENARIO_HARNESS_CACHE ?? join(homedir(), '.cache', 'scenario-harness');
/** Offline-first, as CI reruns want it; no audit, fund or update notices; no install scripts (they never change what is resolved). */
const NPM_FLAGS = ['--no-audit', '--no-fund', '--prefer-offline', '--ignore-scripts', '--no-update-notifier'];
const NPM_ENV = { ...process.env, npm_config_loglevel: 'error' };

/** An app's own packages, exact versions: the first one names the app. */
export type AppPackages = Readonly<Record<string, string>>;

/** What an install changed in the app: lockfile entries, as `path: before → after`. */
export interface TreeChanges {
  /** Entries whose version (or source) changed, and entries removed. */
  moved: string[];
  /** Entries added that scenario-harness does not depend on. */
  addedBesides: string[];
}

interface Lockfile {
  packages: Record<string, { version?: string; resolved?: string; integrity?: string } & Partial<Record<'dependencies' | 'optionalDependencies' | 'peerDependencies', Record<string, string>>>>;
}

/** `express-4.17.0`, for folder names and labels. */
export const appName = (packages: AppPackages): string => {
  const [name, version] = Object.entries(packages)[0]!;
  return `${name.replace(/[@/]/g, '')}-${version}`;
};

/** The app installed (and locked) in the cache; returns its folder. */
export async function lockedApp(packages: AppPackages): Promise<string> {
  const home = join(cacheRoot, 'locked-apps', `${appName(packages)}-${createHash('sha256').update(JSON.stringify(packages)).digest('hex').slice(0, 8)}`);
  const marker = join(home, '.installed');
  if (existsSync(marker)) return home;
  await withLock('locked-app', home, async () => {
    if (existsSync(marker)) return;
    const staging = `${home}.installing-${process.pid}`;
    rmSync(staging, { recursive: true, force: true });
    mkdirSync(staging, { recursive: true });
    writeFileSync(join(staging, 'package.json'), `${JSON.stringify({ name: appName(packages), private: true, type: 'module' }, null, 2)}\n`);
    await run('npm', ['install', ...NPM_FLAGS, ...Object.entries(packages).map(([name, version]) => `${name}@${version}`)], { cwd: staging, env: NPM_ENV, maxBuffer: 64 << 20 });
    writeFileSync(join(staging, '.installed'), JSON.stringify(packages));
    rmSync(home, { recursive: true, force: true });
    renameSync(staging, home);
  });
  return home;
}

/** A throwaway copy of the cached app (symlinks kept as they are: `node_modules/.bin`). */
export async function copyOfApp(home: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'scenario-harness-locked-app-'));
  await run('cp', ['-a', `${home}/.`, dir]);
  return dir;
}

/**
 * How npm resolved the app, from `npm ls --all --json`: each package (`name@version`, the app
 * itself as `.`) with the `name@version` of every dependency it resolves to. A package listed
 * twice (npm prints it whole once, then "deduped") counts once, so where npm prints it whole does
 * not matter.
 */
export async function listTree(dir: string): Promise<Record<string, string[]>> {
  const { stdout } = await run('npm', ['ls', '--all', '--json'], { cwd: dir, env: NPM_ENV, maxBuffer: 64 << 20 }).catch((error: { stdout?: string }) => {
    // `npm ls` exits 1 on a problem in the tree (an unmet optional peer, say) and still prints it.
    if (typeof error.stdout === 'string' && error.stdout.startsWith('{')) return { stdout: error.stdout };
    throw error;
  });
  type Node = { version?: string; dependencies?: Record<string, Node> };
  const resolved = new Map<string, Set<string>>();
  const visit = (key: string, node: Node) => {
    const deps = resolved.get(key) ?? new Set<string>();
    resolved.set(key, deps);
    for (const [name, child] of Object.entries(node.dependencies ?? {})) {
      const childKey = `${name}@${child.version ?? 'missing'}`;
      deps.add(childKey);
      visit(childKey, child);
    }
  };
  visit('.', JSON.parse(stdout) as Node);
  return Object.fromEntries([...resolved].sort(([a], [b]) => a.localeCompare(b)).map(([key, deps]) => [key, [...deps].sort()]));
}

/**
 * What the install changed in `npm ls`: every package the app had resolves its dependencies as
 * before (the app itself gaining scenario-harness only), and every package added is one that
 * scenario-harness brings.
 */
export function treeChanges(before: Record<string, string[]>, after: Record<string, string[]>): string[] {
  const changes: string[] = [];
  const ours = new Set<string>();
  const bring = (key: string) => {
    if (ours.has(key) || before[key] !== undefined) return;
    ours.add(key);
    for (const dep of after[key] ?? []) bring(dep);
  };
  for (const dep of after['.'] ?? []) if (dep.startsWith('scenario-harness@')) bring(dep);
  for (const [key, deps] of Object.entries(before)) {
    const now = key === '.' ? (after[key] ?? []).filter((dep) => !ours.has(dep)) : after[key];
    if (now === undefined) changes.push(`${key}: gone`);
    else if (now.join() !== deps.join()) changes.push(`${key}: resolves ${deps.filter((d) => !now.includes(d)).join(', ') || '-'} as ${now.filter((d) => !deps.includes(d)).join(', ') || '-'}`);
  }
  for (const key of Object.keys(after)) if (before[key] === undefined && !ours.has(key)) changes.push(`${key}: added`);
  return changes;
}

export const readLockfile = (dir: string): Lockfile => JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8')) as Lockfile;

/** `npm install -D <tarball>` in the app's folder, as a user adds the package. */
export async function installDev(dir: string, tarball: string): Promise<void> {
  await run('npm', ['install', '--save-dev', ...NPM_FLAGS, tarball], { cwd: dir, env: NPM_ENV, maxBuffer: 64 << 20 });
}

/**
 * Every package scenario-harness brings (itself and what it depends on, transitively), as lockfile
 * paths: resolved the way Node does, from the package's folder up.
 */
function packagesOfScenarioHarness(lock: Lockfile): Set<string> {
  const found = new Set<string>();
  const visit = (path: string) => {
    if (found.has(path)) return;
    found.add(path);
    const entry = lock.packages[path];
    // npm installs a dependency's peers too (openapi-types for @readme/openapi-parser); the
    // package's own peers are the app's frameworks, not something it brings.
    const peers = path === 'node_modules/scenario-harness' ? {} : entry?.peerDependencies;
    for (const name of Object.keys({ ...entry?.dependencies, ...entry?.optionalDependencies, ...peers })) {
      for (let base = path; ; base = base.slice(0, base.lastIndexOf('/node_modules/'))) {
        const candidate = `${base}/node_modules/${name}`;
        if (lock.packages[candidate] !== undefined) {
          visit(candidate);
          break;
        }
        if (!base.includes('/node_modules/')) {
          if (lock.packages[`node_modules/${name}`] !== undefined) visit(`node_modules/${name}`);
          break;
        }
      }
    }
  };
  visit('node_modules/scenario-harness');
  return found;
}

/** What the install changed in the lockfile, besides adding scenario-harness and its own dependencies. */
export function lockfileChanges(before: Lockfile, after: Lockfile): TreeChanges {
  const describe = (entry: Lockfile['packages'][string] | undefined) => (entry === undefined ? 'removed' : (entry.version ?? entry.resolved ?? '?'));
  const moved = Object.keys(before.packages)
    .filter((path) => path !== '')
    .filter((path) => {
      const [was, is] = [before.packages[path]!, after.packages[path]];
      return is === undefined || was.version !== is.version || was.resolved !== is.resolved || was.integrity !== is.integrity;
    })
    .map((path) => `${path}: ${describe(before.packages[path])} → ${describe(after.packages[path])}`);
  const own = packagesOfScenarioHarness(after);
  const addedBesides = Object.keys(after.packages)
    .filter((path) => path !== '' && before.packages[path] === undefined && !own.has(path))
    .map((path) => `${path}@${describe(after.packages[path])}`);
  return { moved, addedBesides };
}

