#!/usr/bin/env node
// Makes sure the Bun and Deno binaries of the versions pinned in test-runtimes.json are on this
// machine, and prints their paths. The `bun` and `deno` npm packages download their binary in a
// postinstall script from a per-platform package (`@oven/bun-linux-x64`, `@deno/linux-x64-glibc`);
// we fetch that package directly with `npm pack`, so nothing runs at install time and CI needs
// nothing but npm. Kept outside the repository, keyed by version, like the Node lines:
//   ${SCENARIO_HARNESS_CACHE:-~/.cache/scenario-harness}/bun/<version>/bin/bun
//   ${SCENARIO_HARNESS_CACHE:-~/.cache/scenario-harness}/deno/<version>/deno
//
//   node scripts/ensure-runtimes.mjs              → installs both (if missing), one path a line
//   node scripts/ensure-runtimes.mjs bun          → just Bun
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cacheRoot, unpackFromRegistry } from './ensure-node.mjs';

/** Where each runtime's linux-x64 binary ships on the registry, and where it sits in that package. */
const RUNTIMES = {
  bun: { package: '@oven/bun-linux-x64', binary: ['bin', 'bun'], reports: (version) => version },
  deno: { package: '@deno/linux-x64-glibc', binary: ['deno'], reports: (version) => `deno ${version} ` },
};

/** The pinned version of `name` (test-runtimes.json). */
export function pinnedVersion(name) {
  const version = JSON.parse(readFileSync(new URL('../test-runtimes.json', import.meta.url), 'utf8'))[name];
  if (typeof version !== 'string') throw new Error(`ensure-runtimes: test-runtimes.json has no "${name}" version.`);
  return version;
}

/** Where the binary of `name` at `version` lives once installed (whether or not it is there yet). */
export function runtimeBinary(name, version = pinnedVersion(name)) {
  const runtime = RUNTIMES[name];
  if (runtime === undefined) throw new Error(`ensure-runtimes: unknown runtime '${name}' (known: ${Object.keys(RUNTIMES).join(', ')}).`);
  return join(cacheRoot, name, version, ...runtime.binary);
}

/** The path of the binary of `name` at its pinned version, installing it from the npm registry when missing. */
export function ensureRuntime(name, version = pinnedVersion(name)) {
  const binary = runtimeBinary(name, version);
  if (existsSync(binary)) return binary;
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(`ensure-runtimes: only linux x64 binaries are fetched (this is ${process.platform} ${process.arch}); install ${name} ${version} yourself and put it at ${binary}.`);
  }
  unpackFromRegistry(`${RUNTIMES[name].package}@${version}`, join(cacheRoot, name, version), binary);
  const reported = execFileSync(binary, ['--version'], { encoding: 'utf8' });
  if (!reported.startsWith(RUNTIMES[name].reports(version))) throw new Error(`ensure-runtimes: ${binary} says ${reported.trim()}, expected ${name} ${version}.`);
  return binary;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const names = process.argv.length > 2 ? process.argv.slice(2) : Object.keys(RUNTIMES);
  for (const name of names) console.log(ensureRuntime(name));
}
