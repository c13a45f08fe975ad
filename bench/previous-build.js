#!/usr/bin/env node
// Builds the previous scenario-harness, the last commit on @mswjs/interceptors 0.41, outside the
// repository, for the benchmarks' *-041 subjects (the node:http path on 0.41 beside this build):
//
//   node bench/previous-build.js      prints the folder; clones, installs and builds it when missing
//
// A clone of this repository at PREVIOUS_COMMIT (bench/lib/harness-glue.js) in
// ${SCENARIO_HARNESS_CACHE:-~/.cache/scenario-harness}/bench-041/src (BENCH_PREVIOUS_HARNESS
// overrides it), with its own node_modules from its own lockfile (`npm ci`), built with
// `npm run build`. That build supports Node 20 and 22, so both run with the Node 22 line of
// test-runtimes.json first on PATH (scripts/ensure-node.mjs installs it from the npm registry).
// The bench imports its dist/ by path; its dependencies resolve from its node_modules.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureNode, supportedNodeVersions } from '../scripts/ensure-node.mjs';
import { PREVIOUS_COMMIT, previousHarnessDir } from './lib/harness-glue.js';

const rootDir = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const dir = previousHarnessDir();
const built = path.join(dir, 'dist', 'adapters', 'express.js');
const log = (line) => process.stderr.write(`${line}\n`);

const git = (...args) => execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8' }).trim();

if (!fs.existsSync(path.join(dir, '.git'))) {
  log(`cloning ${rootDir} into ${dir}`);
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  execFileSync('git', ['clone', '-q', rootDir, dir], { stdio: 'inherit' });
}
const wanted = git('rev-parse', `${PREVIOUS_COMMIT}^{commit}`);
if (git('rev-parse', 'HEAD') !== wanted || !fs.existsSync(built)) {
  git('checkout', '-q', wanted);
  const node22 = supportedNodeVersions().find((version) => version.startsWith('22.'));
  if (!node22) throw new Error('previous-build: test-runtimes.json names no Node 22 line to build the 0.41 build with');
  const binDir = path.dirname(ensureNode(node22));
  const env = { ...process.env, PATH: `${binDir}${path.delimiter}${process.env.PATH}` };
  log(`npm ci && npm run build in ${dir} (Node ${node22})`);
  execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: dir, env, stdio: ['ignore', 2, 2] });
  execFileSync('npm', ['run', 'build'], { cwd: dir, env, stdio: ['ignore', 2, 2] });
}
const interceptors = JSON.parse(fs.readFileSync(path.join(dir, 'node_modules', '@mswjs', 'interceptors', 'package.json'), 'utf8')).version;
log(`previous build: ${wanted.slice(0, 7)}, @mswjs/interceptors ${interceptors}`);
console.log(dir);
