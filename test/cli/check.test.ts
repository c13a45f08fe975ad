/**
 * `scenario-harness check`, run as a user runs it: good scenario files for the three bundled API
 * documents (Swagger 2 Petstore, the Stripe-shaped OpenAPI 3.0 payments API, the OpenAPI 3.1
 * Museum) check clean; files that drifted from them, one kind of drift per mock, are reported
 * line by line.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { runCli } from '../standalone/serve-process.js';

// Paths are given relative to test/, as a user gives them relative to their project.
const cwd = fileURLToPath(new URL('../', import.meta.url));
const PETSTORE = 'import/fixtures/petstore-swagger2.json';
const PAYMENTS = 'import/fixtures/payments-openapi30.yaml';
const MUSEUM = 'import/fixtures/museum-openapi31.yaml';
const ORDERS = 'contracts/fixtures/orders-openapi30.yaml';
const check = (...args: string[]) => runCli(['check', ...args], { cwd });
const lines = (text: string) => text.trimEnd().split('\n');

test('check --help describes the command, its options and examples; the main help lists it', async () => {
  const { code, stdout } = await check('--help');
  expect(code).toBe(0);
  expect(stdout).toMatch(/^Usage: scenario-harness check --openapi <doc> \[--openapi <doc>…\] <scenario files…>\n/);
  expect(stdout).toContain('--openapi <doc>');
  expect(stdout).toContain('(repeatable)');
  expect(stdout).toContain('--json');
  expect((await runCli(['--help'])).stdout).toMatch(/^ {2}check --openapi <doc> .*Check mocks against the providers' OpenAPI documents/m);
});

test.each([
  [['check', 'scenarios.yaml'], 'Against what? Give the API document with --openapi'],
  [['check', '--openapi', PETSTORE], 'Which scenario files? Give one or more after the options'],
  [['check', '--openapi'], 'The option --openapi needs a value.'],
])('%j is a usage error: exit 2', async (args, message) => {
  const { code, stderr } = await runCli(args, { cwd });
  expect(code).toBe(2);
  expect(stderr).toContain(`[scenario-harness] ${message}`);
});

test.each([
  [PETSTORE, 'contracts/fixtures/petstore.good.yaml', '6 mocks checked against import/fixtures/petstore-swagger2.json (Swagger 2.0)'],
  [PAYMENTS, 'contracts/fixtures/payments.good.yaml', '5 mocks checked against import/fixtures/payments-openapi30.yaml (OpenAPI 3.0.3)'],
  [MUSEUM, 'contracts/fixtures/museum.good.yaml', '5 mocks checked against import/fixtures/museum-openapi31.yaml (OpenAPI 3.1.0)'],
])('mocks that fit %s check clean: exit 0, one summary line', async (document, scenarios, summary) => {
  const { code, stdout, stderr } = await check('--openapi', document, scenarios);
  expect(stderr).toBe('');
  expect(stdout).toBe(`[scenario-harness] No problems: ${summary}.\n`);
  expect(code).toBe(0);
});

test('Swagger 2: a nested field of the wrong type, a missing required property, an unknown path and method, an undeclared status and query parameter', async () => {
  const { code, stdout } = await check('--openapi', PETSTORE, 'contracts/fixtures/petstore.drift.yaml');
  const at = 'contracts/fixtures/petstore.drift.yaml: scenario "default"';
  expect(lines(stdout)).toEqual([
    `${at}, mock "wrongNestedType" (mocks[0]), response.body.category.id: expected integer, got the string "one" (GET /pet/{petId}, petstore-swagger2.json)`,
    `${at}, mock "missingRequired" (mocks[1]), response.body.photoUrls: missing: the schema requires it (GET /pet/{petId}, petstore-swagger2.json)`,
    `${at}, mock "unknownPath" (mocks[2]), url: expected a path petstore-swagger2.json documents: /v2/pets/:petId is under its servers, but none of its paths matches it (petstore-swagger2.json)`,
    `${at}, mock "unknownMethod" (mocks[3]), method: expected a method /pet/{petId} documents (GET, DELETE), got PATCH (petstore-swagger2.json)`,
    `${at}, mock "undeclaredStatus" (mocks[4]), response.status: expected a status GET /pet/findByStatus documents (200, 400), got 503 (GET /pet/findByStatus, petstore-swagger2.json)`,
    `${at}, mock "undeclaredQuery" (mocks[5]), match.query.state: expected a query parameter GET /pet/findByStatus declares (status) (GET /pet/findByStatus, petstore-swagger2.json)`,
    '[scenario-harness] 6 problems in 6 of the 6 mocks checked against import/fixtures/petstore-swagger2.json (Swagger 2.0).',
  ]);
  expect(code).toBe(1);
});

test('OpenAPI 3.0 (Stripe-shaped): wrong types and enum values, a missing required header, undeclared body fields and headers, an undocumented content type', async () => {
  const { code, stdout } = await check('--openapi', PAYMENTS, 'contracts/fixtures/payments.drift.yaml');
  const at = 'contracts/fixtures/payments.drift.yaml: scenario "payments"';
  expect(lines(stdout)).toEqual([
    `${at}, mock "amountAsText" (mocks[0]), response.body.amount: expected integer, got the string "2000" (POST /charges, payments-openapi30.yaml)`,
    `${at}, mock "unknownStatusValue" (mocks[1]), response.body.status: expected one of "succeeded", "pending", "failed", got the string "refunded" (GET /charges/{charge}, payments-openapi30.yaml)`,
    `${at}, mock "noRequestId" (mocks[2]), response.headers["Request-Id"]: missing: the 201 response of POST /charges/{charge}/refunds requires this header (POST /charges/{charge}/refunds, payments-openapi30.yaml)`,
    `${at}, mock "undeclaredBodyField" (mocks[3]), match.headers["stripe-account"]: expected a header parameter POST /charges declares (none) (POST /charges, payments-openapi30.yaml)`,
    `${at}, mock "undeclaredBodyField" (mocks[3]), match.body.metadata: expected a field the request body declares (amount, currency, source) (POST /charges, payments-openapi30.yaml)`,
    `${at}, mock "textError" (mocks[4]), response.body: expected a documented content type (application/json), got text/plain (sent as text/plain by default: set headers.content-type) (GET /charges/{charge}, payments-openapi30.yaml)`,
    '[scenario-harness] 6 problems in 5 of the 5 mocks checked against import/fixtures/payments-openapi30.yaml (OpenAPI 3.0.3).',
  ]);
  expect(code).toBe(1);
});

test('OpenAPI 3.1: formats and patterns, a oneOf no branch fits, a stream by its content type only, an undeclared body field', async () => {
  const { code, stdout } = await check('--openapi', MUSEUM, 'contracts/fixtures/museum.drift.yaml');
  const at = 'contracts/fixtures/museum.drift.yaml: scenario "museum"';
  expect(lines(stdout)).toEqual([
    `${at}, mock "badDate" (mocks[0]), response.body[0].date: expected a string in the format "date", got the string "next Tuesday" (GET /museum-hours, museum-openapi31.yaml)`,
    `${at}, mock "badDate" (mocks[0]), response.body[0].timeOpen: expected a string matching /^([01]\\d|2[0-3]):?([0-5]\\d)$/, got the string "9am" (GET /museum-hours, museum-openapi31.yaml)`,
    `${at}, mock "unknownHost" (mocks[1]), response.body.host: expected exactly one of the schemas in its "oneOf" to fit, but none does (GET /special-events/{eventId}, museum-openapi31.yaml)`,
    `${at}, mock "qrAsJson" (mocks[2]), response.stream: expected a documented content type (image/png), got application/x-ndjson (sent as application/x-ndjson by default: set headers.content-type) (GET /tickets/{ticketId}/qr, museum-openapi31.yaml)`,
    `${at}, mock "undeclaredTicketField" (mocks[3]), match.body.seat: expected a field the request body declares (ticketType, eventId, ticketDate, email) (POST /tickets, museum-openapi31.yaml)`,
    '[scenario-harness] 5 problems in 4 of the 4 mocks checked against import/fixtures/museum-openapi31.yaml (OpenAPI 3.1.0).',
  ]);
  expect(code).toBe(1);
});

test('OpenAPI 3.0 dialect: nullable values, boolean exclusiveMinimum, a nullable $ref, recursive schemas, a server variable', async () => {
  const { code, stdout } = await check('--openapi', ORDERS, 'contracts/fixtures/orders.yaml');
  const at = 'contracts/fixtures/orders.yaml: scenario "default", mock "drifts" (mocks[1])';
  expect(lines(stdout)).toEqual([
    `${at}, response.body.total: expected the value to be > 0, got number 0 (GET /orders/{orderId}, orders-openapi30.yaml)`,
    `${at}, response.body.status: expected one of "open", "paid", null, got the string "shipped" (GET /orders/{orderId}, orders-openapi30.yaml)`,
    `${at}, response.body.customer.email: expected a string in the format "email", got the string "nobody" (GET /orders/{orderId}, orders-openapi30.yaml)`,
    `${at}, response.body.parts[0].parts[0].sku: expected string, got number 7 (GET /orders/{orderId}, orders-openapi30.yaml)`,
    '[scenario-harness] 4 problems in 1 of the 2 mocks checked against contracts/fixtures/orders-openapi30.yaml (OpenAPI 3.0.3).',
  ]);
  expect(code).toBe(1);
});

test('several documents: each mock is checked against the one whose servers it is under; others are listed as not checked; --json holds it all', async () => {
  const args = ['--openapi', PETSTORE, '--openapi', PAYMENTS, '--openapi', MUSEUM, 'contracts/fixtures/several.yaml', 'contracts/fixtures/scenarios-module.mjs'];
  const text = await check(...args);
  expect(text.code).toBe(1);
  expect(lines(text.stdout).slice(3, 7)).toEqual([
    'Not checked (2):',
    '  contracts/fixtures/several.yaml: scenario "default", mock "weather" (mocks[3]), https://api.weather.test/today: under none of the documents\' servers',
    '  contracts/fixtures/scenarios-module.mjs: scenario "default", mock "computed" (mocks[1]), https://petstore.swagger.io/v2/pet/findByStatus: its response is a function: its URL, method and match were checked, not what it answers',
    expect.stringMatching(/^\[scenario-harness\] 3 problems in 3 of the 6 mocks checked against .*; 1 of 7 mocks not checked \(listed above\)\.$/),
  ]);

  const { code, stdout, stderr } = await check(...args, '--json');
  expect(stderr).toBe('');
  expect(code).toBe(1);
  const report = JSON.parse(stdout) as Record<string, unknown>;
  expect(report).toEqual({
    documents: [
      { path: PETSTORE, specification: 'Swagger 2.0', servers: ['https://petstore.swagger.io/v2', 'http://petstore.swagger.io/v2'] },
      { path: PAYMENTS, specification: 'OpenAPI 3.0.3', servers: ['https://api.payments.test/v1', 'https://sandbox.payments.test/v1'] },
      { path: MUSEUM, specification: 'OpenAPI 3.1.0', servers: ['https://api.fake-museum-example.com/v1'] },
    ],
    mocks: 7,
    checked: 6,
    problems: [
      // A path-only URL, on any origin, is under the document whose base path it starts with.
      { file: 'contracts/fixtures/several.yaml', scenario: 'default', index: 2, id: 'hours', field: 'response.body[0].timeClose', message: 'missing: the schema requires it', operation: 'GET /museum-hours', document: MUSEUM },
      { file: 'contracts/fixtures/scenarios-module.mjs', scenario: 'default', index: 0, id: 'inventory', field: 'response.body.available', message: 'expected integer, got the string "many"', operation: 'GET /store/inventory', document: PETSTORE },
      { file: 'contracts/fixtures/scenarios-module.mjs', scenario: 'default', index: 1, id: 'computed', field: 'match.query.sort', message: 'expected a query parameter GET /pet/findByStatus declares (status)', operation: 'GET /pet/findByStatus', document: PETSTORE },
    ],
    unchecked: [
      { file: 'contracts/fixtures/several.yaml', scenario: 'default', index: 3, id: 'weather', url: 'https://api.weather.test/today', reason: "under none of the documents' servers" },
      { file: 'contracts/fixtures/scenarios-module.mjs', scenario: 'default', index: 1, id: 'computed', url: 'https://petstore.swagger.io/v2/pet/findByStatus', reason: 'its response is a function: its URL, method and match were checked, not what it answers' },
    ],
  });
});

test('a glob covering several paths is listed as not checked, with the paths it covers', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cli-check-'));
  writeFileSync(join(dir, 'catch-all.yaml'), 'default:\n  name: Catch-all\n  mocks:\n    - { url: "https://petstore.swagger.io/v2/*", response: { status: 404 } }\n');
  const { code, stdout } = await check('--openapi', join(cwd, PETSTORE), join(dir, 'catch-all.yaml'));
  expect(code).toBe(0);
  expect(stdout).toContain('https://petstore.swagger.io/v2/*: its URL pattern covers 4 documented paths (/pet, /pet/findByStatus, /pet/{petId}, /store/inventory): give it one path to have it checked\n');
});

test('bad input exits 1 and says what to do: a missing document, one that does not parse, one without servers, one that is not OpenAPI, an invalid scenario file', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cli-check-'));
  writeFileSync(join(dir, 'broken.yaml'), 'openapi: 3.0.3\npaths: [\n');
  writeFileSync(join(dir, 'bad-scenarios.yaml'), 'default:\n  name: Bad\n  mocks: [{ url: nowhere }]\n');
  const good = join(cwd, 'contracts/fixtures/petstore.good.yaml');
  const run = (document: string, scenarios = good) => runCli(['check', '--openapi', document, scenarios], { cwd: dir });

  const missing = await run('nope.yaml');
  expect(missing.code).toBe(1);
  expect(missing.stderr).toContain(`[scenario-harness] Failed to read the API document nope.yaml: no such file. Check the path (relative paths start from ${dir}).`);

  const broken = await run('broken.yaml');
  expect(broken.code).toBe(1);
  expect(broken.stderr).toMatch(/\[scenario-harness\] Failed to read the API document broken\.yaml: it does not parse \(.+\)\. Fix the JSON or YAML syntax, or a \$ref that points nowhere\./);

  const serverless = await run(join(cwd, 'import/fixtures/api-with-examples-openapi30.yaml'));
  expect(serverless.code).toBe(1);
  expect(serverless.stderr).toContain('api-with-examples-openapi30.yaml: it names no server (no "servers"), so no mock URL can be placed under it. Add the API\'s base URL to the document (servers: [{ url: https://api.example.com/v1 }]), or check against a copy that has it.');

  const notOpenApi = await run(good);
  expect(notOpenApi.code).toBe(1);
  expect(notOpenApi.stderr).toContain('petstore.good.yaml: it has neither "openapi" nor "swagger" at the top, so it is not an OpenAPI or Swagger document.');

  const invalid = await run(join(cwd, PETSTORE), 'bad-scenarios.yaml');
  expect(invalid.code).toBe(1);
  expect(invalid.stderr).toContain('[scenario-harness] Invalid scenario definitions in bad-scenarios.yaml:');
  expect(invalid.stdout).toBe('');
});
