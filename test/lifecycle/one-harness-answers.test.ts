/**
 * One harness answers a process's calls, whatever evaluates the module that creates it again (a
 * dev server after an edit, two copies of the package): the newest answers with its definitions,
 * tests switched before keep their scenario, state, sequence positions and journal, and one
 * warning says what happened. `sideBySide: true` keeps harnesses apart on purpose.
 */
import { spawn } from 'node:child_process';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createHarness, type ScenarioMap } from 'scenario-harness';
import { afterEach, expect, test } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const started: { stop(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((harness) => harness.stop()));
});

/** The definitions a module holds, in its `version` (as a dev server would after an edit). */
const definitions = (version: string): ScenarioMap => ({
  default: { name: 'D', mocks: [{ url: 'https://api.reload.test/greeting', response: { body: `default ${version}` } }] },
  busy: {
    name: 'Busy',
    mocks: [
      {
        url: 'https://api.reload.test/greeting',
        sequence: { responses: [{ body: `busy ${version} #1` }, { body: `busy ${version} #2` }], repeat: 'last' },
        afterResponse: { setState: { 'seen[]': version } },
      },
    ],
  },
});

function startHarness(version: string, extra: { sideBySide?: boolean } = {}) {
  const warnings: string[] = [];
  const harness = createHarness({ enabled: true, announce: false, scenarios: definitions(version), logger: { info() {}, warn: (message: string) => warnings.push(message), error() {} }, ...extra });
  started.push(harness);
  return { harness, warnings, start: () => harness.start() };
}

const greeting = (harness: { run<T>(testId: string, fn: () => T): T }, testId: string) => harness.run(testId, async () => (await fetch('https://api.reload.test/greeting')).text());

test('the newest harness answers with its definitions; a test switched before keeps scenario, state, positions and journal; one warning', async () => {
  const first = startHarness('v1');
  await first.start();
  await first.harness.switchScenario('t1', 'busy');
  expect(await greeting(first.harness, 't1')).toBe('busy v1 #1');

  const second = startHarness('v2');
  await second.start();
  expect(await greeting(second.harness, 't1')).toBe('busy v2 #2');
  expect(await greeting(second.harness, 't2')).toBe('default v2');
  expect(await second.harness.getActiveScenario('t1')).toEqual({ scenarioId: 'busy' });
  expect(await second.harness.getState('t1')).toEqual({ seen: ['v1', 'v2'] });
  expect((await second.harness.getCalls('t1')).map((call) => call.url)).toEqual(['https://api.reload.test/greeting', 'https://api.reload.test/greeting']);
  expect(first.warnings).toEqual([]);
  expect(second.warnings).toHaveLength(1);
  expect(second.warnings[0]).toMatch(/A harness was already answering in this process.*The newest one answers from now on, with its definitions; tests switched before keep their scenario, state, sequence positions and journal\..*sideBySide: true/);

  // A switch through the first harness (a request the old module still serves) lands in the same sessions.
  await first.harness.switchScenario('t3', 'busy');
  expect(await greeting(second.harness, 't3')).toBe('busy v2 #1');

  const third = startHarness('v3');
  await third.start();
  expect(await greeting(third.harness, 't1')).toBe('busy v3 #2');
  expect(third.warnings).toEqual([]); // logged once per process
});

test('when the newer harness stops, the one it took over from answers again (a harness a test starts for a while)', async () => {
  const app = startHarness('app');
  await app.start();
  const temporary = startHarness('temporary');
  await temporary.start();
  expect(await greeting(temporary.harness, 't1')).toBe('default temporary');
  await temporary.harness.stop();
  expect(await greeting(app.harness, 't1')).toBe('default app');
});

test('a harness created after the answering one stopped starts with sessions of its own', async () => {
  const first = startHarness('v1');
  await first.start();
  await first.harness.switchScenario('t1', 'busy');
  await first.harness.stop();
  const second = startHarness('v2');
  await second.start();
  expect(await greeting(second.harness, 't1')).toBe('default v2');
});

test('sideBySide harnesses keep their own sessions and both answer', async () => {
  const one = startHarness('one', { sideBySide: true });
  const two = startHarness('two', { sideBySide: true });
  await one.start();
  await two.start();
  await two.harness.switchScenario('t1', 'busy');
  expect(await one.harness.getActiveScenario('t1')).toBeUndefined();
  expect(two.warnings).toEqual([]);
});

test('sideBySide must be true or false', () => {
  expect(() => createHarness({ enabled: true, scenarios: definitions('x'), sideBySide: 'yes' as unknown as boolean })).toThrow('expected "sideBySide" to be true or false, instead got "yes".');
});

test('plain Node: a module that creates, starts and scopes a harness, imported twice, answers switched tests from its newest copy', async () => {
  const work = mkdtempSync(join(tmpdir(), 'scenario-harness-reload-'));
  const module = join(work, 'harness.mjs');
  const app = join(work, 'app.mjs');
  // The module a dev server evaluates again after an edit: it reads its definitions' version from the query.
  writeFileSync(
    module,
    `import { createHarness } from ${JSON.stringify(pathToFileURL(join(ROOT, 'dist/index.js')).href)};
import { scopeIncomingRequests } from ${JSON.stringify(pathToFileURL(join(ROOT, 'dist/adapters/node.js')).href)};
const version = new URL(import.meta.url).searchParams.get('v');
const answer = (body) => ({ url: 'https://api.reload.test/greeting', response: { body } });
export const harness = createHarness({ enabled: true, scenarios: { default: { name: 'D', mocks: [answer('default ' + version)] }, busy: { name: 'B', mocks: [answer('busy ' + version)] } } });
await harness.start();
scopeIncomingRequests(harness);
`,
  );
  writeFileSync(
    app,
    `import { createServer } from 'node:http';
await import(${JSON.stringify(`${module}?v=1`)});
const server = createServer(async (req, res) => {
  if (req.url === '/reload') {
    await import(${JSON.stringify(`${module}?v=2`)});
    return res.end('reloaded');
  }
  res.end(await (await fetch('https://api.reload.test/greeting')).text());
});
server.listen(0, '127.0.0.1', () => console.log('listening ' + server.address().port));
`,
  );
  // The built package (npm test builds before the suites), as an app would import it.
  const child = spawn(process.execPath, [app], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  try {
    const port = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        const found = /listening (\d+)/.exec(stdout)?.[1];
        if (found !== undefined) resolve(found);
      });
      child.once('exit', (code) => reject(new Error(`the app exited with code ${code}:\n${stderr}`)));
    });
    const as = (testId: string, path = '/greeting', init: RequestInit = {}) => fetch(`http://127.0.0.1:${port}${path}`, { ...init, headers: { 'x-harness-test-id': testId, 'content-type': 'application/json', ...init.headers } });
    expect((await as('t1', '/__scenario__', { method: 'POST', body: JSON.stringify({ scenario: 'busy' }) })).status).toBe(200);
    expect(await (await as('t1')).text()).toBe('busy 1');
    expect(await (await as('t1', '/reload')).text()).toBe('reloaded');
    expect(await (await as('t1')).text()).toBe('busy 2');
    expect(await (await as('t2')).text()).toBe('default 2');
    expect(stderr.match(/A harness was already answering in this process/g)).toHaveLength(1);
  } finally {
    child.kill();
  }
});
