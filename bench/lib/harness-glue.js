// scenario-harness, imported by its published names. Under bench/run.js the import
// goes through BENCH_HARNESS_LOADER, a loader that imports 'scenario-harness' and
// 'scenario-harness/express' from a snapshot of the build taken at the start of the
// run (see snapshotHarness in run.js). Otherwise the names resolve to this
// repository's own dist/ (self-reference through its "exports"; needs `npm run build`).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { MOCK_ORIGIN } from './workloads.js';

/** The commit of the previous build: the last one on @mswjs/interceptors 0.41 (1331dc0, its child, moved to 0.45). */
export const PREVIOUS_COMMIT = '2ff44fcf33756eaff8d95f2245622144758edcf1'; // 1331dc0~1

/**
 * Where bench/previous-build.js keeps a clone of the repository at PREVIOUS_COMMIT, built, with
 * its own node_modules (outside the repository): BENCH_PREVIOUS_HARNESS, or
 * ${SCENARIO_HARNESS_CACHE:-~/.cache/scenario-harness}/bench-041/src.
 */
export function previousHarnessDir() {
  if (process.env.BENCH_PREVIOUS_HARNESS) return path.resolve(process.env.BENCH_PREVIOUS_HARNESS);
  const cache = process.env.SCENARIO_HARNESS_CACHE ?? path.join(os.homedir(), '.cache', 'scenario-harness');
  return path.join(cache, 'bench-041', 'src');
}

export async function loadHarness() {
  if (process.env.BENCH_HARNESS_LOADER) {
    const mod = await import(pathToFileURL(process.env.BENCH_HARNESS_LOADER).href);
    return { ...mod };
  }
  const core = await import('scenario-harness');
  const express = await import('scenario-harness/express');
  return { ...core, harnessMiddleware: express.harnessMiddleware };
}

/**
 * The previous build (interceptors 0.41), imported from its own dist/ by path: its dependencies
 * resolve from its own node_modules, so it runs on the library it was built with.
 */
export async function loadPreviousHarness() {
  const dir = previousHarnessDir();
  const dist = path.join(dir, 'dist');
  if (!fs.existsSync(path.join(dist, 'adapters', 'express.js'))) {
    throw new Error(`the previous build (${PREVIOUS_COMMIT}, @mswjs/interceptors 0.41) is not at ${dir}: run \`node bench/previous-build.js\` first`);
  }
  const core = await import(pathToFileURL(path.join(dist, 'index.js')).href);
  const express = await import(pathToFileURL(path.join(dist, 'adapters', 'express.js')).href);
  return { ...core, harnessMiddleware: express.harnessMiddleware };
}

/** A neutral workload mock -> a scenario-harness Mock (plain data: a scenario's or a test's own). */
export function toHarnessMock(m) {
  return {
    method: m.method,
    url: MOCK_ORIGIN + m.path,
    ...(m.matchBody ? { match: { body: m.matchBody } } : {}),
    response: { status: 200, body: m.body },
  };
}

/** Neutral workload scenarios -> scenario-harness definitions (with an empty `default`). */
export function toHarnessScenarios(neutral, defineScenarios) {
  const out = { default: { name: 'Default', mocks: [] } };
  for (const sc of neutral) out[sc.id] = { name: sc.id, mocks: sc.mocks.map(toHarnessMock) };
  return defineScenarios ? defineScenarios(out) : out;
}
