// scenario-harness, imported by its published name (self-reference through the
// package's "exports"; needs `npm run build` to have produced dist/).
import { MOCK_ORIGIN } from './workloads.js';

export async function loadHarness() {
  const core = await import('scenario-harness');
  const express = await import('scenario-harness/express');
  return { ...core, harnessMiddleware: express.harnessMiddleware };
}

/** Neutral workload scenarios -> scenario-harness definitions (with an empty `default`). */
export function toHarnessScenarios(neutral, defineScenarios) {
  const out = { default: { name: 'Default', mocks: [] } };
  for (const sc of neutral) {
    out[sc.id] = {
      name: sc.id,
      mocks: sc.mocks.map((m) => ({
        method: m.method,
        url: MOCK_ORIGIN + m.path,
        ...(m.matchBody ? { match: { body: m.matchBody } } : {}),
        response: { status: 200, body: m.body },
      })),
    };
  }
  return defineScenarios ? defineScenarios(out) : out;
}
