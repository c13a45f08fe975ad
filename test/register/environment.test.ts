/**
 * `scenario-harness/register` configured from the environment: bad input stops the app at
 * start with what was wrong, a likely typo is named, a disabled register attaches and loads
 * nothing, and an app that starts its own harness beside it gets one clear error.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startUpstream, type Upstream } from '../conformance/upstream.js';
import { cleanEnv, CONFORMANCE_SCENARIOS, PLAIN_APP, runWithRegister, startWithRegister } from './start-registered-app.js';

const OWN_HARNESS_APP = fileURLToPath(new URL('./own-harness-app.ts', import.meta.url));
const RECORD_LOADS = fileURLToPath(new URL('./record-loads-first.mjs', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'scenario-harness-register-'));
const file = (name: string, text: string) => {
  const path = join(work, name);
  writeFileSync(path, text);
  return path;
};
let upstream: Upstream;
beforeAll(async () => (upstream = await startUpstream()));
afterAll(() => upstream?.close());

const appEnv = (extra: Record<string, string | undefined>) => cleanEnv({ FRAMEWORK: 'node', UPSTREAM_ORIGIN: upstream.origin, ...extra });

test('a scenario file that does not exist stops the app at start, naming the file', async () => {
  const missing = join(work, 'nope.yaml');
  const { code, stdout, stderr } = await runWithRegister(PLAIN_APP, appEnv({ HARNESS_ENABLED: 'true', HARNESS_SCENARIOS: missing }));
  expect(code).toBe(1);
  expect(stdout).not.toContain('listening');
  expect(stderr).toContain(`[scenario-harness] Failed to load scenario file ${missing}`);
});

test('an invalid scenario file stops the app with the file, the scenario, the mock and the field; a YAML syntax error with its line', async () => {
  const invalid = file('invalid.yaml', 'default:\n  name: D\n  mocks:\n    - url: https://api.x.test/a\n      respones: { body: 1 }\n');
  const broken = file('broken.json', '{\n  "default": { "name": "D", "mocks": [] },\n}');
  const { code, stderr } = await runWithRegister(PLAIN_APP, appEnv({ HARNESS_ENABLED: 'true', HARNESS_SCENARIOS: `${invalid},${broken}` }));
  expect(code).toBe(1);
  expect(stderr).toContain('2 of 2 scenario files failed to load');
  expect(stderr).toContain(invalid);
  expect(stderr).toMatch(/respones/);
  expect(stderr).toMatch(/did you mean .*response/i);
  expect(stderr).toContain(`${broken}: it is not valid JSON at line 3, column 1`);
});

test('invalid settings are all named at once, with what each accepts', async () => {
  const { code, stderr } = await runWithRegister(PLAIN_APP, appEnv({ HARNESS_ENABLED: 'true', HARNESS_SCENARIOS: CONFORMANCE_SCENARIOS, HARNESS_UNHANDLED: 'loud', HARNESS_JOURNAL: 'maybe', HARNESS_REDIS_URL: 'localhost:6379' }));
  expect(code).toBe(1);
  expect(stderr).toContain('scenario-harness/register cannot start:');
  expect(stderr).toContain('HARNESS_UNHANDLED is "loud": expected one of "bypass", "warn", "error".');
  expect(stderr).toContain('HARNESS_JOURNAL is "maybe": expected "on" or "off".');
  expect(stderr).toContain('HARNESS_REDIS_URL is "localhost:6379": expected a redis:// or rediss:// URL');
});

test('HARNESS_ENABLED=true without HARNESS_SCENARIOS says what to set', async () => {
  const { code, stderr } = await runWithRegister(PLAIN_APP, appEnv({ HARNESS_ENABLED: 'true' }));
  expect(code).toBe(1);
  expect(stderr).toContain('HARNESS_SCENARIOS is empty');
});

test('a misspelt setting is named with the one it most likely meant, and the app still starts', async () => {
  const app = await startWithRegister(PLAIN_APP, appEnv({ HARNESS_ENABLED: 'true', HARNESS_SCENARIOS: CONFORMANCE_SCENARIOS, HARNESS_UNHANDELD: 'error', HARNESS_CONTROL: 'proxy' }));
  try {
    expect(app.stderr()).toContain('HARNESS_UNHANDELD is not a setting of scenario-harness/register; did you mean HARNESS_UNHANDLED?');
    // An app's own HARNESS_* variable, close to no setting, is left alone.
    expect(app.stderr()).not.toContain('HARNESS_CONTROL');
  } finally {
    await app.close();
  }
});

test('scenario files and modules load together (.json and .mjs), and a scenario ID in two of them names both', async () => {
  const json = file('a.json', JSON.stringify({ default: { name: 'From JSON', mocks: [{ url: '*/upstream/greeting', response: { body: { greeting: 'from json' } } }] } }));
  const module = file('b.mjs', "export default { friendly: { name: 'From a module', mocks: [{ url: '*/upstream/greeting', response: { body: { greeting: 'from a module' } } }] } };\n");
  const app = await startWithRegister(PLAIN_APP, appEnv({ HARNESS_ENABLED: 'true', HARNESS_SCENARIOS: `${json}, ${module}` }));
  try {
    const greeting = async (testId: string) => ((await (await fetch(app.url('/greeting'), { headers: { 'x-harness-test-id': testId } })).json()) as { greeting: string }).greeting;
    expect(await greeting('t1')).toBe('from json');
    const switched = await fetch(app.url('/__scenario__'), { method: 'POST', headers: { 'content-type': 'application/json', 'x-harness-test-id': 't1' }, body: '{"scenario":"friendly"}' });
    expect(switched.status).toBe(200);
    expect(await greeting('t1')).toBe('from a module');
    expect(await greeting('t2')).toBe('from json');
  } finally {
    await app.close();
  }
  const twice = file('c.mjs', "export const scenarios = { default: { name: 'Again', mocks: [] } };\n");
  const { code, stderr } = await runWithRegister(PLAIN_APP, appEnv({ HARNESS_ENABLED: 'true', HARNESS_SCENARIOS: `${json},${twice}` }));
  expect(code).toBe(1);
  expect(stderr).toContain(`scenario "default" is defined in both ${json} and ${twice}`);
});

test('without HARNESS_ENABLED=true register attaches nothing and loads nothing else, and says so once when scenarios are named', async () => {
  const loadsFile = join(work, 'loads.txt');
  writeFileSync(loadsFile, '');
  const app = await startWithRegister(PLAIN_APP, appEnv({ HARNESS_SCENARIOS: CONFORMANCE_SCENARIOS, LOADS_FILE: loadsFile }), [RECORD_LOADS]);
  try {
    const post = await fetch(app.url('/__scenario__'), { method: 'POST', headers: { 'content-type': 'application/json', 'x-harness-test-id': 't1' }, body: '{"scenario":"friendly"}' });
    expect(post.status).toBe(404);
    expect(app.stderr().match(/\[scenario-harness\]/g)).toHaveLength(1);
    expect(app.stderr()).toContain('[scenario-harness] off: HARNESS_SCENARIOS is set but HARNESS_ENABLED is not set, so register attached nothing.');
    const loads = readFileSync(loadsFile, 'utf8').split('\n');
    // tsx maps the package's names to src/ (tsconfig.json's paths); the packed package runs dist/ (test/newcomer/no-code-guide.test.ts).
    expect(loads.some((url) => /\/register\/index\.(js|ts)$/.test(url))).toBe(true);
    expect(loads.filter((url) => url.includes('@mswjs/interceptors') || /\/register\/attach\.|\/core\/create-harness\.|\/node_modules\/yaml\//.test(url))).toEqual([]);
  } finally {
    await app.close();
  }
});

test('an app that starts a harness of its own under register gets one clear error at start', async () => {
  const { code, stdout, stderr } = await runWithRegister(OWN_HARNESS_APP, appEnv({ HARNESS_ENABLED: 'true', HARNESS_SCENARIOS: CONFORMANCE_SCENARIOS }));
  expect(code).not.toBe(0);
  expect(stdout).not.toContain('started a second harness');
  expect(stderr).toContain('scenario-harness/register already attached one to this process');
});

test('register leaves stdout to the program: a tool whose output another program parses (next build reads tsc --showConfig as JSON) prints exactly its own', async () => {
  const tool = file('prints-json.mjs', "process.stdout.write(JSON.stringify({ compilerOptions: { strict: true } }) + '\\n');\n");
  const { code, stdout, stderr } = await runWithRegister(tool, appEnv({ HARNESS_ENABLED: 'true', HARNESS_SCENARIOS: CONFORMANCE_SCENARIOS }));
  expect(code).toBe(0);
  expect(JSON.parse(stdout)).toEqual({ compilerOptions: { strict: true } });
  expect(stderr).toContain('[scenario-harness] on: intercepting outgoing calls');
});
