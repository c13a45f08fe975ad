// Packing and installing a package folder to weigh it (bench/install-weight.js, and the weight
// step of bench/compare-builds.js): `npm pack --ignore-scripts` of the folder as it is built,
// then `npm install --omit=dev` into an empty folder beside what it should be weighed against.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const npm = (args, cwd) => execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

/** The interceptors version a package folder was built against (its own node_modules, else its package.json range). */
export function interceptorsOf(dir) {
  const installed = path.join(dir, 'node_modules', '@mswjs', 'interceptors', 'package.json');
  if (fs.existsSync(installed)) return JSON.parse(fs.readFileSync(installed, 'utf8')).version;
  return JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).dependencies?.['@mswjs/interceptors'];
}

/**
 * `npm pack` of the package in `dir` into `into`. Scripts off: dist/ as it is built. The tarball's
 * path, and what `npm pack --json` says of it: its bytes, its bytes unpacked and its files.
 */
export function packWithStats(dir, into) {
  if (!fs.existsSync(path.join(dir, 'dist', 'index.js'))) throw new Error(`${dir} has no dist/: build it first (npm run build)`);
  const [info] = JSON.parse(npm(['pack', '--ignore-scripts', '--json', '--pack-destination', into], dir));
  const renamed = path.join(into, `${path.basename(path.dirname(dir))}-${path.basename(dir)}-${info.filename}`);
  fs.renameSync(path.join(into, info.filename), renamed);
  return { tarball: renamed, size: info.size, unpackedSize: info.unpackedSize, entryCount: info.entryCount };
}

/** `npm pack` of the package in `dir` into `into`; the tarball's path. */
export const pack = (dir, into) => packWithStats(dir, into).tarball;

/** KiB on disk of a package folder, leaving out its own node_modules (`du -sk --exclude`). */
export function ownKib(dir) {
  return Number(execFileSync('du', ['-sk', '--exclude=node_modules', dir], { encoding: 'utf8' }).split('\t')[0]);
}

/** Install `specs` with --omit=dev into a fresh folder work/label; the packages installed and node_modules' size. */
export function install(work, label, specs) {
  const dir = path.join(work, label);
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify({ name: `weight-${label}`, private: true })}\n`);
  npm(['install', '--omit=dev', '--no-audit', '--no-fund', '--ignore-scripts', '--no-package-lock', ...specs], dir);
  const lock = JSON.parse(fs.readFileSync(path.join(dir, 'node_modules', '.package-lock.json'), 'utf8'));
  const packages = Object.keys(lock.packages).filter((key) => key.startsWith('node_modules/'));
  const kib = Number(execFileSync('du', ['-sk', path.join(dir, 'node_modules')], { encoding: 'utf8' }).split('\t')[0]);
  const versionOf = (name) => lock.packages[`node_modules/${name}`]?.version;
  // Each package's own folder (without the packages nested in it), to say where a difference lies.
  const each = Object.fromEntries(
    packages.map((key) => [key, { version: lock.packages[key].version, kib: ownKib(path.join(dir, key)) }]),
  );
  return { label, specs: specs.map((s) => path.basename(s)), packages: packages.length, mib: kib / 1024, express: versionOf('express'), interceptors: versionOf('@mswjs/interceptors'), each };
}
