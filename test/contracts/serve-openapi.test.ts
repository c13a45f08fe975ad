/**
 * `scenario-harness serve --openapi <doc> [--on-contract-violation warn|error]` (issue 27): the
 * standalone server checks each answered call against the documents bundled for the import
 * tests (Swagger 2 Petstore, the Stripe-shaped payments 3.0, the 3.1 Museum) as an embedded
 * harness with `contracts` does. Real `serve` processes, driven over HTTP like a service in any
 * language would; the good and drifted scenario files are the ones `check` reads.
 */
import { randomUUID } from 'node:crypto';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHarnessClient, type HarnessClient } from 'scenario-harness/client';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { attachJournal } from '../../src/playwright/attach-journal.js';
import { runCli, startServe, type ServeProcess } from '../standalone/serve-process.js';

const doc = (name: string) => fileURLToPath(new URL(`../import/fixtures/${name}`, import.meta.url));
const scenarioFile = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
const OPENAPI = ['--openapi', doc('petstore-swagger2.json'), '--openapi', doc('payments-openapi30.yaml'), '--openapi', doc('museum-openapi31.yaml')];
const GOOD = ['petstore.good.yaml', 'payments.good.yaml', 'museum.good.yaml'].map(scenarioFile);
const DRIFT = ['petstore.drift.yaml', 'payments.drift.yaml', 'museum.drift.yaml'].map(scenarioFile);
const PETSTORE = 'https://petstore.swagger.io/v2';
const PAYMENTS = 'https://api.payments.test/v1';
const MUSEUM = 'https://api.fake-museum-example.com/v1';
const JSON_BODY = { 'content-type': 'application/json' };

const WRONG_CATEGORY = 'response.body.category.id: expected integer, got the string "one" (GET /pet/{petId} in petstore-swagger2.json)';

let good: ServeProcess;
let drift: ServeProcess;
let failing: ServeProcess;

beforeAll(async () => {
  [good, drift, failing] = await Promise.all([
    startServe([...OPENAPI, ...GOOD]),
    startServe([...OPENAPI, '--on-contract-violation', 'warn', ...DRIFT]),
    startServe([...OPENAPI, '--on-contract-violation', 'error', ...DRIFT]),
  ]);
}, 60_000);
afterAll(async () => {
  await Promise.all([good?.stop(), drift?.stop(), failing?.stop()]);
});

const newTest = (server: ServeProcess) => createHarnessClient({ baseURL: server.url, testId: `serve-openapi-${randomUUID()}` });

/** A call of the service under test, sent to the server with its upstream in the path. */
async function send(server: ServeProcess, client: HarnessClient, url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  const target = new URL(url);
  const response = await fetch(`${server.url}/${target.protocol.slice(0, -1)}/${target.host}${target.pathname}${target.search}`, { ...init, headers: { ...client.headers, ...init.headers } });
  return { status: response.status, hint: response.headers.get('x-harness-hint'), body: await response.text() };
}

test('calls that fit their documents are answered as the mocks say, each journal entry with contractViolations: []', async () => {
  const pets = newTest(good);
  expect(await send(good, pets, `${PETSTORE}/pet/10`)).toMatchObject({ status: 200 });
  const payments = newTest(good);
  await payments.switchScenario('payments');
  // (Not the createCharge mock: its `{{body.amount}}` renders a form field, text, where the document wants an integer.)
  const refunded = await send(good, payments, `${PAYMENTS}/charges/ch_1/refunds`, { method: 'POST' });
  expect(refunded).toMatchObject({ status: 201 });
  expect(JSON.parse(refunded.body)).toMatchObject({ id: 're_1', amount: 2000 });
  const museum = newTest(good);
  await museum.switchScenario('museum');
  expect(await send(good, museum, `${MUSEUM}/museum-hours?startDate=2023-09-11&limit=2`)).toMatchObject({ status: 200 });

  for (const client of [pets, payments, museum]) {
    const calls = await client.calls();
    expect(calls.map((call) => [call.status, call.contractViolations])).toEqual([[calls[0]!.status, []]]);
    await expect(client.expectNoContractViolations()).resolves.toHaveLength(1);
  }
  expect(good.output()).toContain(`contracts: each answered call is checked against ${OPENAPI.filter((arg) => arg !== '--openapi').join(', ')} (on violation: warn)`);
});

test("'warn': a drifted answer and a request the document refuses are answered as the mocks say, the journal names each violation, each logged once", async () => {
  const client = newTest(drift);
  const first = await send(drift, client, `${PETSTORE}/pet/1`);
  expect(first.status).toBe(200);
  expect(JSON.parse(first.body)).toMatchObject({ category: { id: 'one' } });
  expect((await send(drift, client, `${PETSTORE}/pet/1`)).status).toBe(200);
  const museum = newTest(drift);
  await museum.switchScenario('museum');
  const ticket = await send(drift, museum, `${MUSEUM}/tickets`, { method: 'POST', headers: JSON_BODY, body: JSON.stringify({ ticketType: 'general', seat: 'A1' }) });
  expect(ticket.status).toBe(201);

  expect((await client.calls()).map((call) => call.contractViolations)).toEqual([[WRONG_CATEGORY], [WRONG_CATEGORY]]);
  const [ticketCall] = await museum.calls();
  expect(ticketCall?.contractViolations).toContain('request.body.ticketDate: missing: the schema requires it (POST /tickets in museum-openapi31.yaml)');
  await expect(client.expectNoContractViolations()).rejects.toThrow(`    - ${WRONG_CATEGORY}`);

  // The server writes its log in order: once the museum call's warning is out, both pet calls' are too.
  const output = await drift.waitForOutput(/Contract violation in POST https:\/\/api\.fake-museum-example\.com\/v1\/tickets/);
  expect(output.split(`Contract violation in GET ${PETSTORE}/pet/1 of test "${client.testId}": ${WRONG_CATEGORY}.`)).toHaveLength(2);
});

test("'error': a call that breaks its document is answered 502 naming every violation, and its journal entry keeps what the mock would have answered", async () => {
  const client = newTest(failing);
  const answer = await send(failing, client, `${PETSTORE}/pet/1`);
  expect(answer.status).toBe(502);
  expect(answer.hint).toContain('--on-contract-violation warn');
  expect(JSON.parse(answer.body)).toEqual({
    error: `Failed to answer GET ${PETSTORE}/pet/1 for test "${client.testId}": the call breaks its API document (--on-contract-violation error):\n  - ${WRONG_CATEGORY}\nFix the service's request or the mock's answer so they fit the document, or start the server with --on-contract-violation warn to answer anyway.`,
    testId: client.testId,
    contractViolations: [WRONG_CATEGORY],
  });
  const [call] = await client.calls();
  expect(call).toMatchObject({ answered: true, status: 200, mockId: 'wrongNestedType', contractViolations: [WRONG_CATEGORY] });
});

test("'error': the app's own request is checked too, and a call that fits is answered", async () => {
  const client = newTest(failing);
  await client.switchScenario('museum');
  const refused = await send(failing, client, `${MUSEUM}/museum-hours?limit=many`);
  expect(refused.status).toBe(502);
  const { contractViolations } = JSON.parse(refused.body) as { contractViolations: string[] };
  expect(contractViolations).toContain('request.query.limit: expected integer, got the string "many" (GET /museum-hours in museum-openapi31.yaml)');
  expect(contractViolations.some((violation) => violation.startsWith('response.body[0].date:'))).toBe(true);

  // A mock of the test's own that fits: answered as it says, even in 'error' mode.
  await client.use({ method: 'GET', url: `${MUSEUM}/museum-hours`, response: { body: [{ date: '2023-09-11', timeOpen: '09:00', timeClose: '18:00' }] } });
  expect(await send(failing, client, `${MUSEUM}/museum-hours?limit=2`)).toMatchObject({ status: 200 });
  expect((await client.calls()).map((call) => call.contractViolations?.length)).toEqual([contractViolations.length, 0]);
});

test("the journal attached to a failed Playwright test lists each call's violations under it", async () => {
  const client = newTest(drift);
  await send(drift, client, `${PETSTORE}/pet/1`);
  const dir = mkdtempSync(join(tmpdir(), 'serve-openapi-attach-'));
  const testInfo = { outputPath: (name: string) => join(dir, name), attach: async () => {} };
  await attachJournal(client, testInfo);
  expect(readFileSync(join(dir, 'scenario-harness-calls.txt'), 'utf8')).toBe(
    `1 call of test "${client.testId}", oldest first (the full entries are in "scenario-harness journal"):\nGET ${PETSTORE}/pet/1 → 200 by default#0 "wrongNestedType"\n    contract: ${WRONG_CATEGORY}\n`,
  );
});

test('--watch: a reloaded set is checked too; a document that no longer reads keeps the last good set, still checked', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'serve-openapi-watch-'));
  const document = join(dir, 'petstore.json');
  const file = join(dir, 'petstore.yaml');
  copyFileSync(doc('petstore-swagger2.json'), document);
  copyFileSync(GOOD[0]!, file);
  const server = await startServe(['--watch', '--openapi', document, file]);
  try {
    const violationsOf = async () => {
      const client = newTest(server);
      await send(server, client, `${PETSTORE}/pet/1`);
      return (await client.calls())[0]?.contractViolations;
    };
    expect(await violationsOf()).toEqual([]);

    let mark = server.output().length;
    copyFileSync(DRIFT[0]!, file);
    await server.waitForOutput(/Reloaded 1 scenarios from /, mark);
    expect(await violationsOf()).toEqual([WRONG_CATEGORY.replace('petstore-swagger2.json', 'petstore.json')]);

    mark = server.output().length;
    writeFileSync(document, '{ "swagger": ');
    copyFileSync(GOOD[0]!, file);
    const output = await server.waitForOutput(/Kept the last good scenarios \(1\)/, mark);
    expect(output.slice(mark)).toContain(`Failed to read the API document ${document}: it does not parse (`);
    expect(await violationsOf()).toEqual([WRONG_CATEGORY.replace('petstore-swagger2.json', 'petstore.json')]);
  } finally {
    await server.stop();
  }
});

test('a document that cannot be read, or a wrong mode, stops serve before it listens, saying what to fix', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'serve-openapi-bad-'));
  const broken = join(dir, 'broken.yaml');
  writeFileSync(broken, 'openapi: 3.0.3\npaths: [\n');
  const missing = join(dir, 'missing.yaml');
  const [noFile, noParse, notOpenapi, badMode, modeAlone, noValue] = await Promise.all([
    runCli(['serve', '--port', '0', '--openapi', missing, GOOD[0]!]),
    runCli(['serve', '--port', '0', '--openapi', broken, GOOD[0]!]),
    runCli(['serve', '--port', '0', '--openapi', GOOD[0]!, GOOD[0]!]),
    runCli(['serve', '--port', '0', '--openapi', doc('petstore-swagger2.json'), '--on-contract-violation', 'throw', GOOD[0]!]),
    runCli(['serve', '--port', '0', '--on-contract-violation', 'error', GOOD[0]!]),
    runCli(['serve', '--port', '0', GOOD[0]!, '--openapi']),
  ]);
  expect(noFile).toMatchObject({ code: 1, stdout: '' });
  expect(noFile.stderr).toContain(`Failed to read the API document ${missing}: no such file. Check the path (relative paths start from `);
  expect(noParse).toMatchObject({ code: 1, stdout: '' });
  expect(noParse.stderr).toContain(`Failed to read the API document ${broken}: it does not parse (`);
  expect(noParse.stderr).toContain('Fix the JSON or YAML syntax, or a $ref that points nowhere.');
  expect(notOpenapi).toMatchObject({ code: 1, stdout: '' });
  expect(notOpenapi.stderr).toContain('it has neither "openapi" nor "swagger" at the top, so it is not an OpenAPI or Swagger document.');
  expect(badMode).toMatchObject({ code: 2, stdout: '' });
  expect(badMode.stderr).toContain('Expected --on-contract-violation to be warn or error, instead got "throw".');
  expect(badMode.stderr).toContain('Run "scenario-harness serve --help" for its options.');
  expect(modeAlone).toMatchObject({ code: 2, stdout: '' });
  expect(modeAlone.stderr).toContain('--on-contract-violation needs the API documents to check against: add --openapi <doc>');
  expect(noValue).toMatchObject({ code: 2 });
  expect(noValue.stderr).toContain('The option --openapi needs a value.');
  for (const { stderr } of [noFile, noParse, notOpenapi, badMode, modeAlone, noValue]) expect(stderr).not.toMatch(/Serving|\n\s+at /);
});

test('serve --help lists --openapi and --on-contract-violation', async () => {
  const { code, stdout } = await runCli(['serve', '--help']);
  expect(code).toBe(0);
  expect(stdout).toMatch(/--openapi <doc>\s+Check each answered call under the servers of this OpenAPI/);
  expect(stdout).toMatch(/--on-contract-violation <mode>\s+A call that breaks its --openapi document: warn .*, error \(answer 502 naming the violations\)/s);
});
