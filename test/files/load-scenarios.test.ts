import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHarness, isHarnessError, loadScenarios } from 'scenario-harness';
import { afterEach, expect, test } from 'vitest';

const EXAMPLES = fileURLToPath(new URL('../../examples/scenario-files/', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'scenario-files-'));

/** Write a file into a fresh temporary directory and return its path. */
function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** The HarnessError a load fails with (the test fails if it does not). */
async function failure(...paths: string[]): Promise<Error & { code?: string }> {
  try {
    await loadScenarios(...paths);
  } catch (error) {
    if (!isHarnessError(error) && !(error instanceof TypeError)) throw error;
    return error;
  }
  return expect.unreachable('loadScenarios resolved');
}

const stopped: (() => Promise<void>)[] = [];
afterEach(async () => Promise.all(stopped.splice(0).map((stop) => stop())));

test('loads YAML and JSON files into one map that createHarness takes, RegExps in their data form included', async () => {
  const scenarios = await loadScenarios(join(EXAMPLES, 'payments.yaml'), join(EXAMPLES, 'users.json'));
  expect(Object.keys(scenarios)).toEqual(['default', 'cardDeclined', 'orderPolling', 'premium']);
  expect(scenarios).not.toHaveProperty('$schema');
  const harness = createHarness({ enabled: true, scenarios, unhandled: 'error', logger: { warn() {}, error() {} } });
  await harness.start();
  stopped.push(() => harness.stop());
  await harness.switchScenario('t-1', 'cardDeclined');
  const charge = (headers: Record<string, string> = {}) =>
    harness.run('t-1', async () => {
      const response = await fetch('https://api.stripe.com/v1/charges', { method: 'POST', headers, body: 'amount=100' });
      return [response.status, await response.json()];
    });
  expect(await charge()).toEqual([402, { error: { code: 'card_declined', message: 'Your card was declined.' } }]);
  expect(await charge({ 'Idempotency-Key': 'RETRY-1' })).toEqual([409, { error: { code: 'idempotency_conflict' } }]);
  await harness.switchScenario('t-2', 'premium');
  const user = await harness.run('t-2', async () => (await fetch('https://users.example.test/me')).json());
  expect(user).toEqual({ name: 'Grace Hopper', tier: 'premium' });
});

test('a definition problem names the file, the scenario, the mock index and the field', async () => {
  const yaml = file('bad.yaml', ['ok:', '  name: OK', '  mocks: []', 'broken:', '  name: Broken', '  mocks:', '    - url: https://a.test/x', '      response: { status: 42 }', '    - url: nope', '      response: {}'].join('\n'));
  const error = await failure(yaml);
  expect(error.code).toBe('INVALID_SCENARIOS');
  expect(error.message).toContain(`Invalid scenario definitions in ${yaml}:`);
  expect(error.message).toContain('scenario "broken", mocks[0].response.status: ');
  expect(error.message).toContain('scenario "broken", mocks[1].url: "nope" is not a URL pattern');
  expect(error.message).toContain(`Fix these fields in ${yaml}`);
});

test('a RegExp in a file must be in its data form; a bad one names its field', async () => {
  const json = file('regex.json', JSON.stringify({ s: { name: 'S', mocks: [{ url: { regex: { source: '(' } }, response: {} }, { url: '/x', match: { query: { q: { regex: 'a+' } } }, response: {} }] } }));
  const { message } = await failure(json);
  expect(message).toContain('scenario "s", mocks[0].url.regex: is not a valid regular expression');
  expect(message).toContain('scenario "s", mocks[1].match.query.q: expected a string, a RegExp, or one of');
});

test('the same scenario ID in two files is an error naming both files', async () => {
  const a = file('a.json', JSON.stringify({ default: { name: 'A', mocks: [] }, shared: { name: 'A', mocks: [] } }));
  const b = file('b.yaml', 'shared:\n  name: B\n  mocks: []\n');
  const { message } = await failure(a, b);
  expect(message).toContain(`scenario "shared" is defined in both ${a} and ${b}`);
  expect(message).toContain('Rename one of each pair');
});

test.each([
  ['JSON syntax, with the line and column', 'broken.json', '{\n  "s": { "name": "S", "mocks": [] },\n}', /broken\.json: it is not valid JSON at line 3, column 1 \(/],
  ['JSON cut short, with the line and column of its end', 'short.json', '{\n  "s": { "name": "S",\n', /short\.json: it is not valid JSON at line 3, column 1 \(/],
  ['JSON with a stray character, with its line and column', 'stray.json', '{\n  "s": { "name": "S", "mocks": [] }\n  x\n}', /stray\.json: it is not valid JSON at line 3, column 3 \(/],
  ['YAML syntax, with the line and column', 'broken.yaml', 's:\n  name: S\n  mocks: [\n x: 1', /broken\.yaml: it is not valid YAML: .*line \d+, column \d+/],
  ['a duplicate key in YAML', 'twice.yaml', 's:\n  name: S\n  name: T\n  mocks: []\n', /twice\.yaml: it is not valid YAML: Map keys must be unique/],
  ['several YAML documents', 'docs.yaml', 'a:\n  name: A\n  mocks: []\n---\nb:\n  name: B\n  mocks: []\n', /docs\.yaml: it is not valid YAML: .*multiple documents/],
  ['a list at the top level', 'list.yaml', '- name: S\n  mocks: []\n', /list\.yaml: expected a map of scenario ID → definition at the top level, instead got a list/],
  ['an empty file', 'empty.yml', '', /empty\.yml: expected a map .* instead got nothing \(an empty document\)/],
  ['an unknown extension', 'scenarios.txt', '{}', /scenarios\.txt: unknown file type "\.txt"\. Scenario files end in \.json, \.yaml or \.yml/],
])('%s: the error names the file', async (_, name, text, message) => {
  expect((await failure(file(name, text))).message).toMatch(message);
});

test('a missing file is named with the directory relative paths start from', async () => {
  const { message, code } = await failure('no/such/scenarios.yaml');
  expect(code).toBe('INVALID_ARGUMENT');
  expect(message).toBe(`Failed to load scenario file no/such/scenarios.yaml: no such file. Check the path (relative paths start from ${process.cwd()}).`);
});

test('every failing file is reported in one error', async () => {
  const a = file('first.json', '{');
  const b = file('second.yaml', 's:\n  name: 1\n  mocks: []\n');
  const { message } = await failure(a, file('fine.json', '{}'), b);
  expect(message).toMatch(/^2 of 3 scenario files failed to load:/);
  expect(message).toContain(`${a}: it is not valid JSON`);
  expect(message).toContain(`Invalid scenario definitions in ${b}:\n  - line 2, column 9: scenario "s", name: expected a name (a string)`);
});

test('a scenario ID such as __proto__ stays an ordinary scenario', async () => {
  const scenarios = await loadScenarios(file('proto.json', '{ "__proto__": { "name": "Proto", "mocks": [] } }'));
  expect(Object.getPrototypeOf(scenarios)).toBe(Object.prototype);
  expect(Object.keys(scenarios)).toEqual(['__proto__']);
  const harness = createHarness({ enabled: true, scenarios });
  await harness.switchScenario('t', '__proto__');
  expect(await harness.getActiveScenario('t')).toEqual({ scenarioId: '__proto__' });
});

test('no path, or a path that is not a string, is a TypeError saying what to pass', async () => {
  await expect(loadScenarios()).rejects.toThrow('Expected at least one scenario file path, instead got none.');
  await expect(loadScenarios('a.json', 42 as unknown as string)).rejects.toThrow('Expected every scenario file path to be a non-empty string, instead got 42.');
});

test('one pass lists every problem of a file, a bad regex in a mock with other problems included, each at its line and column', async () => {
  const yaml = file(
    'one-pass.yaml',
    [
      'default:',
      '  name: Default',
      '  mocks:',
      '    - url: https://api.test/a',
      '      respones: { status: 200 }',
      '      match:',
      '        query:',
      "          id: { regex: { source: '(unclosed' } }",
      '    - url: https://api.test/b',
      '      response: { status: 99 }',
      '    - url: https://api.test/c',
      '      match:',
      "        headers: { x: { regex: { source: '[z' } } }",
      '      response: { status: 200 }',
    ].join('\n'),
  );
  expect((await failure(yaml)).message).toBe(
    [
      `Invalid scenario definitions in ${yaml}:`,
      '  - line 4, column 7: scenario "default", mocks[0]: needs exactly one of "response" and "sequence"',
      '  - line 5, column 7: scenario "default", mocks[0]: unknown key "respones" (did you mean "response"?); allowed keys: "id", "method", "url", "match", "response", "sequence", "afterResponse"',
      '  - line 8, column 24: scenario "default", mocks[0].match.query.id.regex: is not a valid regular expression (Invalid regular expression: /(unclosed/: Unterminated group)',
      '  - line 10, column 27: scenario "default", mocks[1].response.status: Too small: expected number to be >=200',
      '  - line 13, column 32: scenario "default", mocks[2].match.headers.x.regex: is not a valid regular expression (Invalid regular expression: /[z/: Unterminated character class)',
      `Fix these fields in ${yaml} (the file format: https://github.com/scenario-harness/scenario-harness/blob/main/docs/scenario-files.md).`,
    ].join('\n'),
  );
});

test('a JSON file\'s problems carry its own line and column too', async () => {
  const json = file('located.json', '{\n  "s": {\n    "name": "S",\n    "mocks": [\n      { "url": "/x", "response": { "status": 42 } }\n    ]\n  }\n}\n');
  expect((await failure(json)).message).toContain(`Invalid scenario definitions in ${json}:\n  - line 5, column 46: scenario "s", mocks[0].response.status: `);
});

test('every YAML syntax error is listed at once, each with its line and column', async () => {
  const broken = file('broken.yaml', 'a:\n  b: [1\nc: {\n d: e: f\n');
  const { message } = await failure(broken);
  expect(message).toMatch(/^Failed to load scenario file .*broken\.yaml: it is not valid YAML: \(1\) .* at line 3, column 1:/);
  expect(message).toContain('(2) Block collections are not allowed within flow collections at line 4, column 5:');
  expect(message).toContain('(3) ');
  expect(message).toMatch(/Fix the syntax there \(each place above\)\.$/);
});
