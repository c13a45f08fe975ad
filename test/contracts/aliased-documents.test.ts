/**
 * Issue 37, item 7: a 640-byte OpenAPI 3.0 YAML (eight levels of eight aliases) ran `check` out
 * of memory: the 3.0 → 2020-12 rewrite copied each aliased node once per path to it, and the
 * OpenAPI parser walks every path too (the same document as 3.1 took seconds). The rewrite now
 * keeps shared nodes shared (src/contracts/schema-dialect.test.ts), and a document whose aliases
 * (or, given as an object, shared objects) would add more than 100,000 values is refused when it
 * is read, with an error that says why, wherever it is read: `check`, `serve --openapi`,
 * `createHarness({ contracts })`. A document with a few aliases is read as before.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHarness, isHarnessError } from 'scenario-harness';
import { expect, test } from 'vitest';
import { runCli } from '../standalone/serve-process.js';

const API = 'https://api.bomb.test';
const dir = mkdtempSync(join(tmpdir(), 'aliased-documents-'));
const scenarios = join(dir, 'scenarios.yaml');
writeFileSync(scenarios, ['default:', '  name: Items', '  mocks:', `    - url: ${API}/items/1`, '      response: { body: { id: 1, note: null } }', ''].join('\n'));

/** Eight levels of eight aliases of a nullable schema: 8^8 places once expanded. */
function bomb(version: string): string {
  const lines = [`openapi: ${version}`, 'info: {title: B, version: "1"}', `servers: [{url: "${API}"}]`, 'paths: {}', 'x:', '  - &a {type: string, nullable: true}'];
  const names = 'abcdefghi';
  for (let level = 1; level < names.length; level++) lines.push(`  - &${names[level]} [${Array(8).fill(`*${names[level - 1]}`).join(', ')}]`);
  return `${lines.join('\n')}\n`;
}

function write(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const ALIAS_BOMB = /expands to [\d,]+ values through its YAML aliases \(\d+ as written\), and they may add at most 100,000, so it is taken for an alias bomb \("billion laughs"\) and not read\. Write each shared part once, under components, and point at it with \$ref\./;

test.each(['3.0.3', '3.1.0'])('check: a %s document under 640 bytes whose aliases expand to millions of values fails with an error that says so (in 128 MiB of heap)', async (version) => {
  const document = write(`bomb-${version}.yaml`, bomb(version));
  expect(Buffer.byteLength(bomb(version))).toBeLessThan(640);
  const { code, stderr } = await runCli(['check', '--openapi', document, scenarios], { env: { NODE_OPTIONS: '--max-old-space-size=128' } });
  expect(stderr).toContain(`Failed to read the API document ${document}: it`);
  expect(stderr).toMatch(ALIAS_BOMB);
  expect(code).toBe(1);
});

test('check: a document with a few aliases is read as before, its 3.0 nullable schemas rewritten through them', async () => {
  const document = write(
    'few-aliases.yaml',
    [
      'openapi: 3.0.3',
      'info: {title: Items, version: "1"}',
      `servers: [{url: "${API}"}]`,
      'paths:',
      '  /items/{id}:',
      '    get:',
      '      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]',
      '      responses:',
      "        '200': &item",
      '          description: an item',
      '          content:',
      '            application/json:',
      '              schema: {type: object, properties: {id: {type: integer}, note: &note {type: string, nullable: true}, other: *note}}',
      "        '201': *item",
      '',
    ].join('\n'),
  );
  const good = await runCli(['check', '--openapi', document, scenarios]);
  expect(good.stderr).toBe('');
  expect(good.stdout).toContain('No problems: 1 mock checked');
  const drifted = write('drifted.yaml', ['default:', '  name: Items', '  mocks:', `    - url: ${API}/items/1`, '      response: { body: { id: 1, other: 7 } }', ''].join('\n'));
  expect((await runCli(['check', '--openapi', document, drifted])).stdout).toContain('response.body.other: expected string or null, got number 7');
});

test('serve --openapi: the server does not start, and says why', async () => {
  const document = write('serve-bomb.yaml', bomb('3.0.3'));
  const { code, stderr } = await runCli(['serve', '--port', '0', '--openapi', document, scenarios], { env: { NODE_OPTIONS: '--max-old-space-size=128' } });
  expect(stderr).toMatch(ALIAS_BOMB);
  expect(code).toBe(1);
});

/** start()'s failure, the harness stopped. */
async function startFailure(openapi: (string | Record<string, unknown>)[]): Promise<unknown> {
  const harness = createHarness({ enabled: true, announce: false, scenarios: { default: { name: 'D', mocks: [] } }, contracts: { openapi } });
  try {
    await harness.start();
    return undefined;
  } catch (error) {
    return error;
  } finally {
    await harness.stop();
  }
}

test('createHarness({ contracts }): a file, or a document object whose shared objects expand the same way, fails start() saying why', async () => {
  const fromFile = await startFailure([write('runtime-bomb.yaml', bomb('3.0.3'))]);
  expect(isHarnessError(fromFile)).toBe(true);
  expect((fromFile as Error).message).toMatch(ALIAS_BOMB);

  // Six levels of eight: 262,144 places, past the bound (the OpenAPI parser walks each).
  let node: Record<string, unknown> = { type: 'string', nullable: true };
  for (let level = 0; level < 6; level++) node = { type: 'object', properties: Object.fromEntries('abcdefgh'.split('').map((key) => [key, node])) };
  const document = { openapi: '3.0.3', info: { title: 'Shared', version: '1' }, servers: [{ url: API }], paths: {}, components: { schemas: { Deep: node } } };
  const fromObject = await startFailure([document]);
  expect(isHarnessError(fromObject)).toBe(true);
  expect((fromObject as Error).message).toContain('Failed to read the API document contracts.openapi[0] ("Shared"): it expands to 898,790 values through the objects it uses in several places (32 as written), and they may add at most 100,000');
});
