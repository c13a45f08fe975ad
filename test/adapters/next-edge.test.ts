/**
 * `scenario-harness/next` is edge-safe: under the `edge-light` condition (what Next's webpack uses
 * when it compiles instrumentation.ts, a proxy or a route for the edge runtime) it resolves to a
 * module that imports nothing from Node, with the same exports, behaving as a disabled harness.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Node with `conditions` resolving and running `source` from the repository (the package by its own name). */
function runWith(conditions: string[], source: string) {
  return spawnSync(process.execPath, [...conditions.flatMap((condition) => ['--conditions', condition]), '--input-type=module', '-e', source], { cwd: ROOT, encoding: 'utf8' });
}

/** Every module `entry` imports, statically or dynamically, followed through relative imports. */
function importGraph(entry: string): { files: string[]; bare: string[] } {
  const files = new Set<string>();
  const bare = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(/(?:from\s*|import\s*\(\s*|import\s+)['"]([^'"]+)['"]/g)) {
      if (specifier!.startsWith('.')) visit(resolve(dirname(file), specifier!));
      else bare.add(specifier!);
    }
  };
  visit(entry);
  return { files: [...files], bare: [...bare] };
}

// The scenarios module an app's harness imports brings in the package's root too (defineScenarios).
const ENTRIES = [
  { name: 'scenario-harness/next', edge: 'dist/adapters/next-edge.js', node: 'dist/adapters/next.js' },
  { name: 'scenario-harness', edge: 'dist/index-edge.js', node: 'dist/index.js' },
];

for (const entry of ENTRIES) {
  test(`under edge-light ${entry.name} resolves to its edge module, with the Node module's exports`, () => {
    const source = `const m = await import('${entry.name}'); console.log(import.meta.resolve('${entry.name}'), Object.keys(m).sort().join(','))`;
    const edge = runWith(['edge-light'], source);
    const node = runWith([], source);
    expect(edge.stderr).toBe('');
    const [edgeFile, edgeExports] = edge.stdout.trim().split(' ');
    const [nodeFile, nodeExports] = node.stdout.trim().split(' ');
    expect(edgeFile).toBe(`file://${ROOT}${entry.edge}`);
    expect(nodeFile).toBe(`file://${ROOT}${entry.node}`);
    expect(edgeExports).toBe(nodeExports);
  });

  test(`${entry.name}'s edge module imports nothing from Node, directly or through what it imports`, () => {
    const { files, bare } = importGraph(fileURLToPath(new URL(`../../${entry.edge}`, import.meta.url)));
    expect(files.length).toBeGreaterThan(1);
    const fromNode = bare.filter((specifier) => specifier.startsWith('node:') || builtinModules.includes(specifier));
    expect(fromNode).toEqual([]);
    expect(bare).toEqual([]);
  });
}

test('on the edge, defineScenarios hands the definitions back and createHarness gives a disabled harness', () => {
  const run = runWith(
    ['edge-light'],
    `import { createHarness, defineScenarios } from 'scenario-harness';
const scenarios = defineScenarios({ default: { name: 'D', mocks: [] } });
const harness = createHarness({ enabled: false, scenarios });
console.log(JSON.stringify({ scenarios, enabled: harness.enabled, ran: harness.run('t1', () => 'ran') }));`,
  );
  expect(run.stderr).toBe('');
  expect(JSON.parse(run.stdout)).toEqual({ scenarios: { default: { name: 'D', mocks: [] } }, enabled: false, ran: 'ran' });
});

test('on the edge, the harness is off: it passes requests on, answers no control path, and says once where it runs', () => {
  const run = runWith(
    ['edge-light'],
    `import { createNextHarness, harnessProxy, harnessRouteHandlers } from 'scenario-harness/next';
const harness = createNextHarness({ enabled: true, scenarios: {} });
createNextHarness({ enabled: true, scenarios: {} });
const passed = await harnessProxy(harness, () => 'next')(new Request('http://app/__scenario__'));
const routed = await harnessRouteHandlers(harness).POST(new Request('http://app/__scenario__', { method: 'POST' }));
const id = harness.testIdFrom(new Headers({ 'x-harness-test-id': 't1' }));
const refused = await harness.switchScenario('t1', 'x').catch((error) => error.message);
console.log(JSON.stringify({ enabled: harness.enabled, control: harness.isControlPath('/__scenario__'), passed, routed: routed.status, id, refused }));`,
  );
  expect(JSON.parse(run.stdout)).toEqual({
    enabled: false,
    control: false,
    passed: 'next',
    routed: 404,
    id: 't1',
    refused: expect.stringContaining("Failed to switch a scenario on the edge runtime: scenario-harness runs on Next.js's Node.js runtime only"),
  });
  expect(run.stderr.match(/\[scenario-harness\] off on the edge runtime/g)).toHaveLength(1);
});
