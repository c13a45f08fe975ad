import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';

const run = promisify(execFile);
const CHILD = fileURLToPath(new URL('./child-app.mjs', import.meta.url));
const CLI_CHILD = fileURLToPath(new URL('./cli-child.mjs', import.meta.url));
/** What only the CLI's `import` loads: the OpenAPI parsers, and our converter and importers. */
const IMPORT_ONLY = ['/node_modules/@readme/openapi-parser/', '/node_modules/openapi-sampler/', '/dist/record/', '/dist/import/'];
/** What only the CLI's `check` loads: the JSON Schema validator, its formats, our contract checks. */
const CHECK_ONLY = ['/node_modules/ajv/', '/node_modules/ajv-formats/', '/dist/contracts/'];

/**
 * The third-party packages among the loaded modules, by name: what a running app pays for
 * (decisions/install-weight.md).
 */
function packagesLoaded(loads: string[]): string[] {
  const names = loads.flatMap((url) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1] ?? []);
  return [...new Set(names)].toSorted();
}

/** Start the built package in a fresh Node process and list every module it loaded. */
async function startChild(enabled: boolean, { contracts = false }: { contracts?: boolean | 'llm' } = {}) {
  const loadsFile = join(mkdtempSync(join(tmpdir(), 'harness-loads-')), 'loads.txt');
  // Enabled under NODE_ENV=production, the harness starts only when allowed to (docs/reliability-and-security.md).
  const env = { ...process.env, HARNESS_ENABLED: String(enabled), HARNESS_ALLOW_PRODUCTION: String(enabled), CONTRACTS: String(contracts), LOADS_FILE: loadsFile, NODE_ENV: 'production' };
  const { stdout } = await run(process.execPath, [CHILD], { env });
  const loads = readFileSync(loadsFile, 'utf8').split('\n');
  // The report is the last line; anything before it is what the harness logged to stdout.
  const lines = stdout.trim().split('\n');
  return { report: JSON.parse(lines.at(-1)!) as { fetchPatched: boolean; headerRead: boolean; passedThrough: boolean }, loads, logged: lines.slice(0, -1) };
}

test('with enabled: false, start() loads nothing of the interception library, patches nothing, reads no header, says nothing', async () => {
  const { report, loads, logged } = await startChild(false);
  expect(logged).toEqual([]);
  expect(loads.some((url) => url.includes('scenario-harness') || url.includes('/dist/'))).toBe(true);
  expect(loads.filter((url) => url.includes('@mswjs/interceptors'))).toEqual([]);
  expect(loads.filter((url) => url.includes('inspector-page'))).toEqual([]);
  // loadScenarios is exported beside createHarness, but its YAML parser loads only when a YAML file is read.
  expect(loads.filter((url) => url.includes('/node_modules/yaml/'))).toEqual([]);
  // The OpenAPI parser and sampler, the traffic converter and the importers belong to the CLI.
  expect(loads.filter((url) => IMPORT_ONLY.some((part) => url.includes(part)))).toEqual([]);
  // So do ajv and the contract checks.
  expect(loads.filter((url) => CHECK_ONLY.some((part) => url.includes(part)))).toEqual([]);
  expect(report).toEqual({ fetchPatched: false, headerRead: false, passedThrough: true });
  // Of the ten dependencies, a disabled app loads zod alone (createHarness validates definitions).
  expect(packagesLoaded(loads)).toEqual(['zod']);
});

test('with enabled: false, a harness with contracts configured loads neither ajv nor the contract checks', async () => {
  const { loads } = await startChild(false, { contracts: true });
  expect(loads.filter((url) => CHECK_ONLY.some((part) => url.includes(part)))).toEqual([]);
  expect(loads.filter((url) => IMPORT_ONLY.some((part) => url.includes(part)))).toEqual([]);
});

test('with enabled: false, contracts: { llm: true } loads neither ajv nor the contract checks; enabled, start() loads them', async () => {
  const disabled = await startChild(false, { contracts: 'llm' });
  expect(disabled.loads.filter((url) => CHECK_ONLY.some((part) => url.includes(part)))).toEqual([]);
  const enabled = await startChild(true, { contracts: 'llm' });
  for (const part of CHECK_ONLY) expect(enabled.loads.some((url) => url.includes(part)), part).toBe(true);
});

test('with enabled: true and contracts configured, start() and an answered call load ajv and the contract checks (the probe sees them)', async () => {
  const { loads } = await startChild(true, { contracts: true });
  for (const part of CHECK_ONLY) expect(loads.some((url) => url.includes(part)), part).toBe(true);
});

test('with enabled: true, the same probe does see the interception library load (the probe works)', async () => {
  const { report, loads, logged } = await startChild(true);
  expect(logged).toEqual([expect.stringMatching(/^\[scenario-harness\] on: intercepting outgoing calls with 1 scenario;/)]);
  expect(loads.some((url) => url.includes('@mswjs/interceptors'))).toBe(true);
  expect(report.fetchPatched).toBe(true);
  // The inspector page (a sizeable string) loads on its first request only.
  expect(loads.filter((url) => url.includes('inspector-page'))).toEqual([]);
  expect(loads.filter((url) => IMPORT_ONLY.some((part) => url.includes(part)))).toEqual([]);
  // A harness without contracts answers its calls without ajv or the contract checks.
  expect(loads.filter((url) => CHECK_ONLY.some((part) => url.includes(part)))).toEqual([]);
  // Enabled: zod, plus the interception library and its own small dependencies; nothing else.
  expect(packagesLoaded(loads)).toEqual(['@mswjs/interceptors', '@open-draft/until', 'debug', 'outvariant', 'rettime', 'zod']);
});

test('the CLI\'s import does load the OpenAPI parsers (the probe sees them when they load)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'harness-loads-'));
  const loadsFile = join(dir, 'loads.txt');
  const spec = fileURLToPath(new URL('../import/fixtures/payments-openapi30.yaml', import.meta.url));
  await run(process.execPath, [CLI_CHILD], { env: { ...process.env, LOADS_FILE: loadsFile, SPEC: spec, OUT: join(dir, 'out.json') } });
  const loads = readFileSync(loadsFile, 'utf8').split('\n');
  for (const part of IMPORT_ONLY) expect(loads.some((url) => url.includes(part)), part).toBe(true);
});

test('the CLI\'s check does load ajv and the contract checks (the probe sees them when they load)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'harness-loads-'));
  const loadsFile = join(dir, 'loads.txt');
  const spec = fileURLToPath(new URL('../import/fixtures/payments-openapi30.yaml', import.meta.url));
  const scenarios = fileURLToPath(new URL('../contracts/fixtures/payments.good.yaml', import.meta.url));
  await run(process.execPath, [CLI_CHILD], { env: { ...process.env, LOADS_FILE: loadsFile, SPEC: spec, CHECK: scenarios } });
  const loads = readFileSync(loadsFile, 'utf8').split('\n');
  for (const part of CHECK_ONLY) expect(loads.some((url) => url.includes(part)), part).toBe(true);
});
