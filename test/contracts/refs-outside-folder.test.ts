/**
 * Issue 37, item 8: `check --openapi` followed `$ref: '../dotenv'` and printed `DB_PASSWORD=…` in
 * its report; `serve --openapi` answered it in its 502s and kept it in the journal, and so did a
 * harness with `contracts`. The rule `import openapi` had since issue 23 now holds wherever a
 * document is read: a `$ref` may read local files inside the document's folder only, unless
 * `--allow-refs-outside` (`contracts.allowRefsOutside`). Each surface is driven as a user drives
 * it: the CLI, a `serve` process over HTTP, a harness in an app.
 */
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHarness, isHarnessError } from 'scenario-harness';
import { createHarnessClient } from 'scenario-harness/client';
import { expect, test } from 'vitest';
import { runCli, startServe } from '../standalone/serve-process.js';
import { startRelayApp } from './runtime/relay-app.js';

const SECRET = 'DB_PASSWORD=hunter2-planted-secret';
const API = 'https://api.users.test';

/**
 * `<dir>/spec/api.yaml`, whose answer's `login` must be one of the values `$ref: '../dotenv'`
 * names (a file one folder up, holding a secret), and a scenario file whose mock answers a
 * number there, so any check that read the file would print its content.
 */
function documentWithRefOutside(): { dir: string; spec: string; scenarios: string } {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'contract-refs-')));
  mkdirSync(join(dir, 'spec'));
  writeFileSync(join(dir, 'dotenv'), `${SECRET}\n`);
  const spec = join(dir, 'spec', 'api.yaml');
  writeFileSync(
    spec,
    [
      'openapi: 3.0.3',
      'info: { title: Users, version: "1" }',
      `servers: [{ url: "${API}" }]`,
      'paths:',
      '  /user:',
      '    get:',
      '      responses:',
      "        '200':",
      '          description: the user',
      '          content:',
      '            application/json:',
      '              schema:',
      '                type: object',
      "                properties: { login: { type: string, enum: [{ $ref: '../dotenv' }] } }",
      '',
    ].join('\n'),
  );
  const scenarios = join(dir, 'scenarios.yaml');
  writeFileSync(scenarios, ['default:', '  name: Users', '  mocks:', `    - url: ${API}/user`, '      response: { body: { login: 42 } }', ''].join('\n'));
  return { dir, spec, scenarios };
}

const refused = (dir: string) => `a "$ref" in it (or in a file it references) names ${join(dir, 'dotenv')}, a file outside the document's folder (${join(dir, 'spec')})`;

test('check: a $ref to a file outside the document\'s folder fails the check naming the file and the flag; the secret is never printed', async () => {
  const { dir, spec, scenarios } = documentWithRefOutside();
  for (const json of [[], ['--json']]) {
    const { code, stdout, stderr } = await runCli(['check', ...json, '--openapi', spec, scenarios]);
    expect(code).toBe(1);
    expect(stderr).toContain(`Failed to read the API document ${spec}: ${refused(dir)}`);
    expect(stderr).toContain('--allow-refs-outside');
    expect(`${stdout}${stderr}`).not.toContain('hunter2');
  }
  // The flag reads it: a document the user trusts.
  const allowed = await runCli(['check', '--allow-refs-outside', '--openapi', spec, scenarios]);
  expect(allowed.code).toBe(1);
  expect(allowed.stdout).toContain(`expected one of "${SECRET}"`);
});

test('serve: a document with such a $ref does not start the server, so no answer or journal can hold the file; --allow-refs-outside starts it', async () => {
  const { dir, spec, scenarios } = documentWithRefOutside();
  const { code, stdout, stderr } = await runCli(['serve', '--port', '0', '--openapi', spec, '--on-contract-violation', 'error', scenarios]);
  expect(code).toBe(1);
  expect(stderr).toContain(refused(dir));
  expect(`${stdout}${stderr}`).not.toContain('hunter2');

  const server = await startServe(['--openapi', spec, '--on-contract-violation', 'error', '--allow-refs-outside', scenarios]);
  try {
    const client = createHarnessClient({ baseURL: server.url, testId: 'refs-allowed' });
    const answer = await fetch(`${server.url}/https/api.users.test/user`, { headers: client.headers });
    expect(answer.status).toBe(502);
    expect(await answer.text()).toContain(SECRET);
  } finally {
    await server.stop();
  }
});

test('serve: --allow-refs-outside without --openapi is a usage error', async () => {
  const { scenarios } = documentWithRefOutside();
  const { code, stderr } = await runCli(['serve', '--port', '0', '--allow-refs-outside', scenarios]);
  expect(code).toBe(2);
  expect(stderr).toContain('--allow-refs-outside is about the $refs of --openapi documents');
});

test('createHarness({ contracts }): start() rejects naming the file; contracts.allowRefsOutside reads it', async () => {
  const { dir, spec } = documentWithRefOutside();
  const scenarios = { default: { name: 'Users', mocks: [{ url: `${API}/user`, response: { body: { login: 42 } } }] } };
  const harness = createHarness({ enabled: true, announce: false, scenarios, contracts: { openapi: [spec], onViolation: 'error' } });
  const failure = await harness.start().then(
    () => undefined,
    (error: unknown) => error,
  );
  await harness.stop();
  expect(isHarnessError(failure)).toBe(true);
  expect((failure as Error).message).toContain(`Failed to read the API document ${spec}: ${refused(dir)}`);
  expect((failure as Error).message).toContain('contracts.allowRefsOutside: true');
  expect((failure as Error).message).not.toContain('hunter2');

  const trusting = createHarness({ enabled: true, announce: false, scenarios, logger: { warn: () => {}, error: () => {} }, contracts: { openapi: [spec], onViolation: 'error', allowRefsOutside: true } });
  const app = await startRelayApp(trusting);
  try {
    const client = app.newTest();
    expect(await app.relay(client, { url: `${API}/user` })).toEqual({ error: expect.stringContaining(SECRET) as unknown });
  } finally {
    await app.close();
  }
});

test('createHarness: contracts.allowRefsOutside must be true or false', () => {
  expect(() => createHarness({ enabled: true, scenarios: { default: { name: 'D', mocks: [] } }, contracts: { openapi: ['a.yaml'], allowRefsOutside: 'yes' as unknown as boolean } })).toThrow(
    'expected "contracts.allowRefsOutside" to be true or false, instead got "yes".',
  );
});
