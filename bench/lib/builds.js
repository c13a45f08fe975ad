// Builds of scenario-harness to compare (bench/compare-builds.js): a commit built outside the
// repository, or this repository's dist/ as it is, each made importable by its published names.
//
// buildAtRev(rev): a clone of this repository at `rev` in
//   ${SCENARIO_HARNESS_CACHE:-~/.cache/scenario-harness}/bench-base/<full sha>/
// with its own node_modules from its own lockfile (`npm ci`) and `npm run build`, both with the
// Node first on PATH. Cached: a folder with dist/ and the marker file is used as it is. It is
// cloned and built in a temporary folder beside it and renamed into place once built, so an
// interrupted build never looks finished.
//
// stageBuild(runDir, label, build): a folder runDir/<label>/ with
//   node_modules/scenario-harness   the build's package.json + dist/ (a copy for the working tree,
//                                   so a rebuild of dist/ meanwhile changes nothing; a symlink to
//                                   the clone for a commit, whose dependencies then resolve from
//                                   the clone's own node_modules)
//   harness.js                      `export * from 'scenario-harness'` + harnessMiddleware from
//                                   'scenario-harness/express': what BENCH_HARNESS_LOADER names
//                                   (bench/lib/harness-glue.js loadHarness)
//   main.js                         the main entry alone (`export * from 'scenario-harness'`)
//   package.json                    private, type module: stops Node's self-reference to the
//                                   repository's own package (as bench/run.js's snapshot does)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const rootDir = path.dirname(path.dirname(path.dirname(fileURLToPath(import.meta.url))));
const MARKER = '.bench-built';
const log = (line) => process.stderr.write(`${line}\n`);

export const cacheDir = () => process.env.SCENARIO_HARNESS_CACHE ?? path.join(os.homedir(), '.cache', 'scenario-harness');

const git = (cwd, ...args) => execFileSync('git', ['-C', cwd, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

/** The full sha of a revision of this repository. */
export function resolveRev(rev) {
  try {
    return git(rootDir, 'rev-parse', '--verify', `${rev}^{commit}`);
  } catch {
    throw new Error(`compare-builds: ${rev} is not a commit of ${rootDir}`);
  }
}

/** The version of a dependency as installed beside a package folder (its own node_modules, else the nearest above). */
export function installedVersion(pkgDir, name) {
  let dir = fs.realpathSync(pkgDir);
  for (;;) {
    const file = path.join(dir, 'node_modules', name, 'package.json');
    if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, 'utf8')).version;
    const up = path.dirname(dir);
    if (up === dir) return null;
    dir = up;
  }
}

/** Clone, install and build `rev` outside the repository (cached); the build's description. */
export function buildAtRev(rev) {
  const sha = resolveRev(rev);
  const dir = path.join(cacheDir(), 'bench-base', sha);
  const built = () => fs.existsSync(path.join(dir, 'dist', 'index.js')) && fs.existsSync(path.join(dir, MARKER));
  if (built()) {
    log(`build ${sha.slice(0, 7)}: cached in ${dir}`);
  } else {
    const tmp = `${dir}.tmp-${process.pid}`;
    fs.rmSync(tmp, { recursive: true, force: true });
    fs.mkdirSync(path.dirname(dir), { recursive: true });
    log(`build ${sha.slice(0, 7)}: cloning ${rootDir} into ${tmp}`);
    execFileSync('git', ['clone', '-q', '--no-checkout', rootDir, tmp], { stdio: ['ignore', 2, 2] });
    git(tmp, 'checkout', '-q', sha);
    const node = execFileSync('node', ['--version'], { encoding: 'utf8' }).trim();
    const started = Date.now();
    try {
      log(`build ${sha.slice(0, 7)}: npm ci && npm run build (Node ${node} from PATH)`);
      execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: tmp, stdio: ['ignore', 2, 2] });
      execFileSync('npm', ['run', 'build'], { cwd: tmp, stdio: ['ignore', 2, 2] });
      fs.writeFileSync(path.join(tmp, MARKER), `${JSON.stringify({ sha, node, builtAt: new Date().toISOString() })}\n`);
    } catch (err) {
      fs.rmSync(tmp, { recursive: true, force: true });
      throw new Error(`compare-builds: building ${sha.slice(0, 7)} failed: ${err.message}`);
    }
    // Someone else may have finished the same build meanwhile: keep theirs.
    if (built()) fs.rmSync(tmp, { recursive: true, force: true });
    else {
      fs.rmSync(dir, { recursive: true, force: true });
      fs.renameSync(tmp, dir);
    }
    log(`build ${sha.slice(0, 7)}: built in ${Math.round((Date.now() - started) / 1000)} s`);
  }
  return { kind: 'rev', rev, sha, dir, interceptors: installedVersion(dir, '@mswjs/interceptors') };
}

/** The newest modification time under `p`, in ms (0 when missing). */
function newest(p) {
  if (!fs.existsSync(p)) return 0;
  const stat = fs.statSync(p);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...fs.readdirSync(p).map((name) => newest(path.join(p, name))));
}

/**
 * This repository's dist/ as the candidate. Built with `npx tsc -p tsconfig.build.json` only when
 * missing (or when `rebuild`): never `npm run build`, which starts with `rm -rf dist` while others
 * may be testing against it.
 */
export function workingBuild({ rebuild = false } = {}) {
  const dist = path.join(rootDir, 'dist');
  if (rebuild || !fs.existsSync(path.join(dist, 'index.js'))) {
    log(`candidate: ${rebuild ? 'rebuilding' : 'no dist/, building'} with npx tsc -p tsconfig.build.json`);
    execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: rootDir, stdio: ['ignore', 2, 2] });
  }
  const head = git(rootDir, 'rev-parse', 'HEAD');
  const changed = git(rootDir, 'status', '--porcelain', '--', 'src').split('\n').filter(Boolean);
  const distMs = newest(dist);
  // tsc never deletes an output whose source moved away: such files are packed, though nothing imports them.
  const orphans = [];
  const walk = (rel) => {
    for (const entry of fs.readdirSync(path.join(dist, rel), { withFileTypes: true })) {
      const file = path.join(rel, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (file.endsWith('.js') && !['.ts', '.tsx', '.mts'].some((ext) => fs.existsSync(path.join(rootDir, 'src', file.replace(/\.js$/, ext))))) orphans.push(file);
    }
  };
  walk('');
  const srcMs = newest(path.join(rootDir, 'src'));
  return {
    kind: 'working',
    rev: 'working tree dist/',
    sha: head,
    dir: rootDir,
    changedUnderSrc: changed,
    distBuiltAt: new Date(distMs).toISOString(),
    // src/ edited after dist/ was last written: the candidate may not be what src/ now says.
    staleAgainstSrc: srcMs > distMs,
    // dist/ files with no source under src/ any more (left by a tsc run after a move).
    orphans,
    interceptors: installedVersion(rootDir, '@mswjs/interceptors'),
  };
}

/** Stage one build under runDir/<label>/ (see the top of this file); paths of its loaders. */
export function stageBuild(runDir, label, build) {
  const dir = path.join(runDir, label);
  const pkgDir = path.join(dir, 'node_modules', 'scenario-harness');
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(path.dirname(pkgDir), { recursive: true });
  if (build.kind === 'working') {
    // A copy: resolving its dependencies walks up to the repository's node_modules.
    fs.mkdirSync(pkgDir);
    fs.copyFileSync(path.join(build.dir, 'package.json'), path.join(pkgDir, 'package.json'));
    fs.cpSync(path.join(build.dir, 'dist'), path.join(pkgDir, 'dist'), { recursive: true });
  } else {
    // A link: Node resolves it to the clone, whose own node_modules then serve its dependencies.
    fs.symlinkSync(build.dir, pkgDir, 'dir');
  }
  fs.writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify({ private: true, type: 'module' })}\n`);
  const loader = path.join(dir, 'harness.js');
  fs.writeFileSync(loader, "// generated by bench/compare-builds.js\nexport * from 'scenario-harness';\nexport { harnessMiddleware } from 'scenario-harness/express';\n");
  const main = path.join(dir, 'main.js');
  fs.writeFileSync(main, "// generated by bench/compare-builds.js: the package's main entry alone\nexport * from 'scenario-harness';\n");
  return { dir, pkgDir, realPkgDir: fs.realpathSync(pkgDir), loader, main };
}
