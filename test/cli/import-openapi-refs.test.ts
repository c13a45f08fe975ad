/**
 * Issue 23, item 13: `import openapi` inlined any local file a `$ref` named (a credentials file
 * in the home folder) into the scenario file. A `$ref` to a file outside the document's folder is
 * now refused, naming the file and the flag that allows it; refs inside the folder still resolve.
 * Issue 37, item 8: a few YAML aliases got a document past that check (it read the YAML with
 * another parser, and skipped a file that parser refused); the parser itself now reads every
 * local file through the rule.
 */
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { runCli } from '../standalone/serve-process.js';

const SECRET = 'AKIA-planted-secret-value';

/**
 * A document in `<dir>/spec/api.yaml` whose 200 example is `$ref`: `ref`; a file one folder up
 * holds a secret. `extra` lines go after `servers`.
 */
function documentWithRef(ref: string, extra: string[] = []): { dir: string; spec: string } {
  const dir = mkdtempSync(join(tmpdir(), 'openapi-refs-'));
  mkdirSync(join(dir, 'spec', 'examples'), { recursive: true });
  writeFileSync(join(dir, 'credentials.json'), JSON.stringify({ key: SECRET }));
  writeFileSync(join(dir, 'spec', 'examples', 'user.json'), JSON.stringify({ login: 'ada' }));
  const spec = join(dir, 'spec', 'api.yaml');
  writeFileSync(
    spec,
    [
      'openapi: 3.0.3',
      'info: { title: Users, version: "1" }',
      'servers: [{ url: "https://api.example.test" }]',
      ...extra,
      'paths:',
      '  /user:',
      '    get:',
      '      operationId: getUser',
      '      responses:',
      "        '200':",
      '          description: the user',
      '          content:',
      '            application/json:',
      `              example: { $ref: '${ref}' }`,
      '',
    ].join('\n'),
  );
  return { dir, spec };
}

test('a $ref to a file outside the document’s folder is refused, and nothing is written', async () => {
  const { dir, spec } = documentWithRef('../credentials.json');
  const out = join(dir, 'out.json');
  const { code, stderr } = await runCli(['import', 'openapi', spec, '--out', out]);
  expect(code).toBe(1);
  expect(stderr).toContain(`names ${join(realpathSync(dir), 'credentials.json')}, a file outside the document's folder (${join(realpathSync(dir), 'spec')})`);
  expect(stderr).toContain('--allow-refs-outside');
  expect(stderr).not.toContain(SECRET);
  expect(existsSync(out)).toBe(false);
});

test('a $ref inside the document’s folder resolves; --allow-refs-outside lets an outside one through', async () => {
  const inside = documentWithRef('./examples/user.json');
  const insideOut = join(inside.dir, 'out.json');
  expect((await runCli(['import', 'openapi', inside.spec, '--out', insideOut])).code).toBe(0);
  expect(readFileSync(insideOut, 'utf8')).toContain('"login": "ada"');

  const outside = documentWithRef('../credentials.json');
  const outsideOut = join(outside.dir, 'out.json');
  const allowed = await runCli(['import', 'openapi', outside.spec, '--out', outsideOut, '--allow-refs-outside']);
  expect(allowed.code, allowed.stderr).toBe(0);
  expect(readFileSync(outsideOut, 'utf8')).toContain(SECRET);
});

test('a document with YAML aliases is held to the same rule (they got it past the check before)', async () => {
  const aliases = ['x-a: &a [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]', 'x-b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]', 'x-c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]'];
  const { dir, spec } = documentWithRef('../credentials.json', aliases);
  const out = join(dir, 'out.json');
  const { code, stderr } = await runCli(['import', 'openapi', spec, '--out', out, '--skip-validation']);
  expect(code).toBe(1);
  expect(stderr).toContain('a file outside the document\'s folder');
  expect(stderr).not.toContain(SECRET);
  expect(existsSync(out)).toBe(false);
});
