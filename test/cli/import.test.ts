import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadScenarios } from 'scenario-harness';
import { expect, test } from 'vitest';
import { runCli } from '../standalone/serve-process.js';

const FIXTURES = fileURLToPath(new URL('../import/fixtures/', import.meta.url));
const PAYMENTS = join(FIXTURES, 'payments-openapi30.yaml');
const HAR = join(FIXTURES, 'checkout.har');
const fresh = () => mkdtempSync(join(tmpdir(), 'cli-import-'));

test('import --help describes both formats, every option and examples', async () => {
  const { code, stdout } = await runCli(['import', '--help']);
  expect(code).toBe(0);
  expect(stdout).toMatch(/^Usage: scenario-harness import <openapi\|har> <file> --out <file> \[options\]/);
  for (const option of ['--out <file>', '--name <name>', '--server <url|index>', '--ids <file.ts>', '--default-scenario <id>', '--skip-validation', '--host <host>', '--include-assets', '--secret-env <NAME>', '--redact <name>', '--match-header <name>']) expect(stdout).toContain(option);
  expect((await runCli(['--help'])).stdout).toMatch(/^ {2}import <openapi\|har> <file> --out <file> \[options\] +Write scenarios from an OpenAPI/m);
});

test.each([
  [['import'], 'What to import? Give a format and a file'],
  [['import', 'postman', 'x.json', '--out', 'o.json'], 'Unknown import format "postman". Formats: openapi, har.'],
  [['import', 'openapi'], 'Which file? Give the OpenAPI document'],
  [['import', 'openapi', 'a.yaml'], 'Where to? Give the scenario file to write: --out scenarios/api.json'],
  [['import', 'openapi', 'a.yaml', '--out', 'o.txt'], 'Expected --out to end in .json, .yaml or .yml, instead got "o.txt".'],
  [['import', 'openapi', 'a.yaml', 'b.yaml', '--out', 'o.json'], 'One file at a time: "b.yaml" is one too many.'],
  [['import', 'openapi', 'a.yaml', '--out', 'o.json', '--host', 'x'], '--host is for "import har", not "import openapi".'],
  [['import', 'har', 'a.har', '--out', 'o.json', '--server', '1'], '--server is for "import openapi", not "import har".'],
  [['import', 'openapi', 'a.yaml', '--out', 'o.json', '--ids', 'ids.js'], 'Expected --ids to end in .ts, instead got "ids.js".'],
])('%j is a usage error: exit 2', async (args, message) => {
  const { code, stderr } = await runCli(args);
  expect(code).toBe(2);
  expect(stderr).toContain(`[scenario-harness] ${message}`);
});

test('openapi: writes a valid file and the IDs module, prints a summary; a second run prints what changed', async () => {
  const dir = fresh();
  const out = join(dir, 'scenarios', 'payments.yaml');
  const first = await runCli(['import', 'openapi', PAYMENTS, '--out', out, '--name', 'payments', '--ids', join(dir, 'payments.ids.ts')]);
  expect(first.stderr).toBe('');
  expect(first.code).toBe(0);
  expect(first.stdout).toBe(`[scenario-harness] Wrote ${out}: 8 scenarios, 12 mocks (OpenAPI 3.0.3, 4 operations; default answers: 1 from named examples, 3 sampled from the schema). IDs: ${join(dir, 'payments.ids.ts')}.\n`);
  expect(Object.keys(await loadScenarios(out))).toContain('payments:createCharge:card_declined');
  expect(readFileSync(join(dir, 'payments.ids.ts'), 'utf8')).toContain('"payments:createCharge:card_declined",');

  // The team edits the file by hand, then imports again: the output says what the import changes back.
  writeFileSync(out, readFileSync(out, 'utf8').replace('ch_3PabcSucceeded', 'ch_edited').replace(/\npayments:createRefund:5XX:[\s\S]*$/, '\n'));
  const again = await runCli(['import', 'openapi', PAYMENTS, '--out', out, '--name', 'payments', '--server', '1']);
  expect(again.code).toBe(0);
  expect(again.stdout).toContain(`[scenario-harness] Changes to ${out}:\n+ scenario "payments:createRefund:5XX"\nscenario "default":\n  ~ createCharge: url, response.body.id\n  ~ createCharge:card_declined: url\n`);
});

test('openapi: a missing file and an invalid document exit 1 with the reason, writing nothing', async () => {
  const dir = fresh();
  const missing = await runCli(['import', 'openapi', 'nope.yaml', '--out', 'x.json'], { cwd: dir });
  expect(missing.code).toBe(1);
  expect(missing.stderr).toContain(`[scenario-harness] Failed to import nope.yaml: no such file. Check the path (relative paths start from ${dir}).`);
  writeFileSync(join(dir, 'bad.yaml'), 'openapi: 3.0.3\ninfo: { title: Bad }\npaths: {}\n');
  const invalid = await runCli(['import', 'openapi', 'bad.yaml', '--out', 'x.json'], { cwd: dir });
  expect(invalid.code).toBe(1);
  expect(invalid.stderr).toContain('[scenario-harness] Failed to import bad.yaml: it is not a valid OpenAPI or Swagger document:');
  expect(invalid.stderr).toContain('version');
  expect(existsSync(join(dir, 'x.json'))).toBe(false);
});

test('har: writes the recorded scenario, lists the redactions, and respects --host and --secret-env', async () => {
  const dir = fresh();
  const out = join(dir, 'checkout.json');
  const { code, stdout, stderr } = await runCli(['import', 'har', HAR, '--out', out, '--host', 'api.stripe.com', '--name', 'checkout']);
  expect(stderr).toBe('');
  expect(code).toBe(0);
  expect(stdout).toContain(`[scenario-harness] Wrote ${out}: 1 scenario, 2 mocks (4 calls; skipped 4 static assets, 3 calls to other hosts; 3 redactions).\n`);
  expect(stdout).toContain('[scenario-harness]   redacted: POST api.stripe.com/v1/payment_intents: response.body.client_secret replaced (secret-looking name)\n');
  const written = readFileSync(out, 'utf8');
  expect(written).not.toContain('sk_test_51HarFixtureKey0000');
  expect(Object.keys(await loadScenarios(out))).toEqual(['checkout']);
});

test('har: a secret that would remain in the file exits 1 naming the field, and writes nothing', async () => {
  const dir = fresh();
  const har = JSON.parse(readFileSync(HAR, 'utf8')) as { log: { entries: { response: { content: { text?: string } } }[] } };
  // The upstream echoes the key base64-encoded, where it cannot be replaced.
  har.log.entries[5]!.response.content.text = JSON.stringify({ id: 'pi_1', debug: Buffer.from('sk_test_51HarFixtureKey0000').toString('base64') });
  writeFileSync(join(dir, 'leaky.har'), JSON.stringify(har));
  const out = join(dir, 'leaky.json');
  const { code, stdout, stderr } = await runCli(['import', 'har', join(dir, 'leaky.har'), '--out', out, '--host', 'api.stripe.com']);
  expect(code).toBe(1);
  expect(stdout).toBe('');
  expect(stderr).toContain('[scenario-harness] Failed to write the recorded scenario "default": it still holds a secret value, so nothing was written.');
  expect(stderr).toContain('default.mocks[0].response.body.debug: the value of request.headers.authorization (base64)');
  expect(stderr).not.toContain('sk_test_51HarFixtureKey0000');
  expect(existsSync(out)).toBe(false);
});
