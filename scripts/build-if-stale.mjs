#!/usr/bin/env node
// `prepack`: `npm pack` and `npm publish` build dist/ first when it is missing or older than
// what it is built from, so a tarball never ships without its build (a fresh clone has no dist/).
// A dist/ that is up to date is kept: test files that pack the package run in parallel with
// others that import dist/, and a rebuild starts with `rm -rf dist`.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const built = join(root, 'dist', 'index.js');

/** The newest modification time under `path` (a file or a folder), in ms. */
function newest(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newest(join(path, name))));
}

const inputs = ['src', 'tsconfig.build.json', 'tsconfig.json', 'package.json'].map((name) => join(root, name));
const stale = !existsSync(built) || inputs.some((input) => newest(input) > statSync(built).mtimeMs);
if (stale) {
  console.error('[prepack] dist/ is missing or older than src/: npm run build');
  // The build's output goes to stderr: `npm pack --json` prints its JSON on stdout.
  execFileSync('npm', ['run', 'build'], { cwd: root, stdio: ['ignore', 2, 2] });
}
