import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { runCli } from '../standalone/serve-process.js';

const EXAMPLES = fileURLToPath(new URL('../../examples/scenario-files/', import.meta.url));
const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
const dir = mkdtempSync(join(tmpdir(), 'cli-'));
const file = (name: string, text: string) => {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
};

test('--help at the top level lists every command and exits 0', async () => {
  for (const args of [['--help'], ['-h'], ['help']]) {
    const { code, stdout } = await runCli(args);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Usage: scenario-harness <command> \[options\]/);
    expect(stdout).toMatch(/^ {2}validate <files…> +Check scenario files/m);
    expect(stdout).toMatch(/^ {2}serve \[options\] <files…> +Run the standalone mock server/m);
  }
});

test.each([
  ['validate', /^Usage: scenario-harness validate <files…>/],
  ['serve', /^Usage: scenario-harness serve \[options\] <files…>[\s\S]*--port <port>[\s\S]*--host <host>[\s\S]*--upstream <origin>=<port>[\s\S]*--unhandled <mode>[\s\S]*--redis <url>[\s\S]*--endpoint <name>=<path>[\s\S]*--watch[\s\S]*--token <token>[\s\S]*--insecure-no-token/],
])('%s --help describes the command, its options and examples, and exits 0', async (command, usage) => {
  for (const args of [[command, '--help'], [command, '-h'], ['help', command]]) {
    const { code, stdout } = await runCli(args);
    expect(code).toBe(0);
    expect(stdout).toMatch(usage);
    expect(stdout).toContain('Examples:');
  }
});

test('--version prints the package version', async () => {
  expect(await runCli(['--version'])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  expect((await runCli(['-v'])).stdout).toBe(`${version}\n`);
});

test.each([
  [['deploy'], 'Unknown command "deploy". Commands: validate, check, serve, record, import.\nRun "scenario-harness --help" for the commands.'],
  [['valid'], 'Unknown command "valid". Did you mean "validate"? Commands: validate, check, serve, record, import.'],
  [['--verbose'], 'Unknown option --verbose. Options before a command: --help, --version.'],
  [['validate', '--strict', 'a.json'], 'Unknown option --strict for "validate".\nRun "scenario-harness validate --help" for its options.'],
  [['serve', '--port'], 'The option --port needs a value.'],
  [['serve', '--watch=yes', 'a.yaml'], 'The option --watch takes no value.'],
  [['serve', '--port', 'abc', 'a.yaml'], 'Expected --port to be a port number from 0 to 65535 (0 picks a free one), instead got "abc".'],
  [['serve', '--upstream', 'https://api.stripe.com', 'a.yaml'], 'Expected --upstream to be <origin>=<port>, instead got "https://api.stripe.com".'],
  [['serve', '--upstream', 'https://a.test/v1=9401', 'a.yaml'], 'Expected --upstream to name an http(s) origin only (scheme, host, optional port; no path)'],
  [['serve', '--upstream', 'https://a.test=9400', 'a.yaml'], 'Port 9400 is given twice (--port and --upstream https://a.test); each upstream needs a port of its own.'],
  [['serve', '--unhandled', 'ignore', 'a.yaml'], 'Expected --unhandled to be bypass, warn or error, instead got "ignore".'],
  [['serve', '--endpoint', 'jurnal=/j', 'a.yaml'], 'Expected --endpoint to be <name>=<path> with a name among setScenario, getScenario, getState'],
  [['serve'], 'Which scenario files? Give one or more: scenario-harness serve scenarios/payments.yaml'],
  [['validate'], 'Which files? Give one or more scenario files'],
])('%j is a usage error: exit 2 with what was wrong', async (args, message) => {
  const { code, stdout, stderr } = await runCli(args);
  expect(code).toBe(2);
  expect(stdout).toBe('');
  expect(stderr).toContain(`[scenario-harness] ${message}`);
});

test('no command at all: exit 2 with the help', async () => {
  const { code, stderr } = await runCli([]);
  expect(code).toBe(2);
  expect(stderr).toContain('Which command?');
  expect(stderr).toContain('Usage: scenario-harness <command> [options]');
});

test('validate: valid files exit 0 with a one-line summary each', async () => {
  const { code, stdout, stderr } = await runCli(['validate', join(EXAMPLES, 'payments.yaml'), join(EXAMPLES, 'users.json')]);
  expect(stderr).toBe('');
  expect(code).toBe(0);
  expect(stdout.split('\n')).toEqual([
    `✓ ${join(EXAMPLES, 'payments.yaml')}: 3 scenarios (default, cardDeclined, orderPolling), 6 mocks`,
    `✓ ${join(EXAMPLES, 'users.json')}: 1 scenario (premium), 2 mocks`,
    '',
  ]);
});

test('validate: invalid files exit 1 with every problem of every file listed, valid ones still summarised', async () => {
  const bad = file('bad.yaml', ['a:', '  name: A', '  mocks:', '    - url: nope', '      response: {}', '    - url: /x', '      response: { status: 99 }', 'b:', '  mocks: []'].join('\n'));
  const broken = file('broken.json', '{ "a": ');
  const good = file('good.json', '{ "ok": { "name": "OK", "mocks": [] } }');
  const { code, stdout, stderr } = await runCli(['validate', bad, good, broken]);
  expect(code).toBe(1);
  expect(stdout).toBe(`✓ ${good}: 1 scenario (ok), 0 mocks\n`);
  expect(stderr).toContain(`[scenario-harness] ✗ ${bad}\nInvalid scenario definitions in ${bad}:`);
  // Every problem at once, in the file's order, each with its line and column.
  expect(stderr).toContain('  - line 4, column 12: scenario "a", mocks[0].url: "nope" is not a URL pattern');
  expect(stderr).toContain('  - line 7, column 27: scenario "a", mocks[1].response.status: ');
  expect(stderr).toContain('  - line 9, column 3: scenario "b", name: expected a name (a string)');
  expect(stderr).toContain(`[scenario-harness] ✗ ${broken}\nFailed to load scenario file ${broken}: it is not valid JSON`);
  expect(stderr).toContain('[scenario-harness] 2 of 3 files invalid.');
});

test('validate: the same scenario ID in two files exits 1 naming both', async () => {
  const a = file('one.json', '{ "shared": { "name": "A", "mocks": [] } }');
  const b = file('two.yaml', 'shared:\n  name: B\n  mocks: []\n');
  const { code, stderr } = await runCli(['validate', a, b]);
  expect(code).toBe(1);
  expect(stderr).toContain(`scenario "shared" is defined in both ${a} and ${b}`);
  expect(stderr).toContain('Every file is valid alone, but they cannot be loaded together.');
});

test('validate: a missing file exits 1 naming it', async () => {
  const { code, stderr } = await runCli(['validate', 'missing.yaml'], { cwd: dir });
  expect(code).toBe(1);
  expect(stderr).toContain(`Failed to load scenario file missing.yaml: no such file. Check the path (relative paths start from ${dir}).`);
});
