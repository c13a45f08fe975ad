/**
 * docs/contracts.md shows the check's output; these runs keep it what the CLI prints, on the
 * fixtures copied under the names the guide uses (specs/…, scenarios/…).
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { runCli } from '../standalone/serve-process.js';

const ROOT = new URL('../../', import.meta.url);
const guide = readFileSync(new URL('docs/contracts.md', ROOT), 'utf8');
const fixture = (path: string) => fileURLToPath(new URL(`test/${path}`, ROOT));

/** The first fenced block of the guide after `heading`, and the one after `after` inside that section. */
function blockAfter(heading: string, after = ''): string {
  const section = guide.slice(guide.indexOf(heading));
  const from = section.indexOf(after);
  return /```[a-z]*\n([\s\S]*?)```/.exec(section.slice(from))![1]!;
}

function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'contracts-guide-'));
  mkdirSync(join(dir, 'specs'));
  mkdirSync(join(dir, 'scenarios'));
  copyFileSync(fixture('import/fixtures/payments-openapi30.yaml'), join(dir, 'specs/payments.yaml'));
  copyFileSync(fixture('import/fixtures/museum-openapi31.yaml'), join(dir, 'specs/museum.yaml'));
  copyFileSync(fixture('import/fixtures/petstore-swagger2.json'), join(dir, 'specs/petstore.json'));
  copyFileSync(fixture('contracts/fixtures/payments.drift.yaml'), join(dir, 'scenarios/payments.yaml'));
  copyFileSync(fixture('contracts/fixtures/payments.good.yaml'), join(dir, 'scenarios/payments-good.yaml'));
  // The guide's catch-all: a glob over every path of one API.
  writeFileSync(join(dir, 'scenarios/several.yaml'), `${readFileSync(fixture('contracts/fixtures/several.yaml'), 'utf8')}    - id: anything\n      url: https://api.payments.test/v1/*\n      response: { status: 404 }\n`);
  return dir;
}

test('"Reading the output" shows what the check prints for those mocks, and the clean run\'s line is the one printed', async () => {
  const cwd = project();
  const drifted = await runCli(['check', '--openapi', 'specs/payments.yaml', 'scenarios/payments.yaml'], { cwd });
  expect(drifted.code).toBe(1);
  expect(drifted.stdout).toBe(blockAfter('## Reading the output'));
  const clean = await runCli(['check', '--openapi', 'specs/payments.yaml', 'scenarios/payments-good.yaml'], { cwd });
  expect(clean.code).toBe(0);
  expect(clean.stdout).toBe(blockAfter('## Check your mocks', 'When every mock fits'));
});

test('"What is not checked" shows the lines the check prints for mocks it cannot place', async () => {
  const cwd = project();
  const { code, stdout } = await runCli(['check', '--openapi', 'specs/payments.yaml', '--openapi', 'specs/museum.yaml', '--openapi', 'specs/petstore.json', 'scenarios/several.yaml'], { cwd });
  expect(code).toBe(1);
  expect(stdout).toContain(blockAfter('## What is not checked'));
  expect(stdout).toContain('; 2 of 6 mocks not checked (listed above).');
  expect(guide).toContain('`…; 2 of 6 mocks not checked (listed above).`');
});

test('the --json example is the start of what --json prints', async () => {
  const { stdout } = await runCli(['check', '--openapi', 'specs/payments.yaml', 'scenarios/payments.yaml', '--json'], { cwd: project() });
  const printed = JSON.parse(stdout) as { problems: unknown[] };
  const shown = JSON.parse(blockAfter('### `--json`')) as { problems: unknown[] };
  expect({ ...printed, problems: printed.problems.slice(0, 1), unchecked: [] }).toEqual(shown);
});
