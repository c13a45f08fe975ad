// scenario-harness, imported by its published names. Under bench/run.js the import
// goes through BENCH_HARNESS_LOADER, a loader that imports 'scenario-harness' and
// 'scenario-harness/express' from a snapshot of the build taken at the start of the
// run (see snapshotHarness in run.js). Otherwise the names resolve to this
// repository's own dist/ (self-reference through its "exports"; needs `npm run build`).
import { pathToFileURL } from 'node:url';
import { MOCK_ORIGIN } from './workloads.js';

export async function loadHarness() {
  if (process.env.BENCH_HARNESS_LOADER) {
    const mod = await import(pathToFileURL(process.env.BENCH_HARNESS_LOADER).href);
    return { ...mod };
  }
  const core = await import('scenario-harness');
  const express = await import('scenario-harness/express');
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
