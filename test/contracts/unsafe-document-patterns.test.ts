/**
 * Issue 37, item 6: a contract document's `pattern`s ran unchecked for catastrophic backtracking.
 * `^([a-z0-9]+-?)+$` against a 28-letter slug and a `!` held `check` for 24 s here (doubling with
 * each letter), and a harness with `contracts` the same on the app's call. A document's patterns
 * now meet the rule scenario regexes meet when the document loads: one that could backtrack
 * catastrophically is not run, and a warning names its JSON pointer (`check` prints it, a harness
 * and `serve` log it); the other patterns are checked as before.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createHarness } from 'scenario-harness';
import { expect, test } from 'vitest';
import { runCli, startServe } from '../standalone/serve-process.js';
import { startRelayApp } from './runtime/relay-app.js';

const API = 'https://api.slugs.test';
/** 28 letters and a character the pattern refuses: the input that takes the pattern exponential time. */
const SLOW_SLUG = `${'a'.repeat(28)}!`;
const POINTER = '#/components/schemas/Post/properties/slug/pattern';
/**
 * The warning. redos-detector proves this pattern catastrophic in about 2 s here; on a slower
 * machine its 3 s may run out first, and the pattern is then "too complex to check": either way
 * it is not run.
 */
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const WARNING = new RegExp(
  `^${escape(`${POINTER}: the pattern /^([a-z0-9]+-?)+$/ `)}(${[
    'can backtrack catastrophically (an input can match it in many overlapping ways: one that does not match takes polynomial or exponential time)',
    'is too complex to check for catastrophic backtracking within 3000 ms or 20000 steps',
  ]
    .map(escape)
    .join('|')})${escape(', so values are not checked against it. Fix it in the document (anchor it with ^, no nested quantifiers such as (a+)+, [^-]+ rather than .+ before a "-") to have them checked.')}$`,
);

const dir = mkdtempSync(join(tmpdir(), 'document-patterns-'));
const document = join(dir, 'slugs.yaml');
writeFileSync(
  document,
  [
    'openapi: 3.0.3',
    'info: { title: Slugs, version: "1" }',
    `servers: [{ url: "${API}" }]`,
    'paths:',
    '  /posts/{slug}:',
    '    get:',
    '      parameters: [{ name: slug, in: path, required: true, schema: { type: string } }]',
    '      responses:',
    "        '200':",
    '          description: the post',
    '          content:',
    "            application/json: { schema: { $ref: '#/components/schemas/Post' } }",
    'components:',
    '  schemas:',
    '    Post:',
    '      type: object',
    '      properties:',
    "        slug: { type: string, pattern: '^([a-z0-9]+-?)+$' }",
    "        code: { type: string, pattern: '^[A-Z]{3}$' }",
    '',
  ].join('\n'),
);
const post = (body: Record<string, string>) => ({ default: { name: 'Posts', mocks: [{ url: `${API}/posts/:slug`, response: { body } }] } });
const scenarios = join(dir, 'scenarios.json');
writeFileSync(scenarios, JSON.stringify(post({ slug: SLOW_SLUG, code: 'abc' })));

test('check: the unsafe pattern is named by its JSON pointer and not run; the safe one is checked as before', async () => {
  const { code, stdout } = await runCli(['check', '--openapi', document, scenarios]);
  const [warning, problem] = stdout.split('\n');
  expect(warning!.startsWith(`${document}: `)).toBe(true);
  expect(warning!.slice(document.length + 2)).toMatch(WARNING);
  expect(problem).toBe(`${scenarios}: scenario "default", mocks[0], response.body.code: expected a string matching /^[A-Z]{3}$/, got the string "abc" (GET /posts/{slug}, slugs.yaml)`);
  expect(stdout).not.toContain('response.body.slug');
  expect(code).toBe(1);
  const json = JSON.parse((await runCli(['check', '--json', '--openapi', document, scenarios])).stdout) as { documents: { warnings?: string[] }[] };
  expect(json.documents[0]!.warnings).toEqual([expect.stringMatching(WARNING)]);
});

test('createHarness({ contracts }): start() warns naming the pointer; a call with the slow slug is answered without holding the event loop', async () => {
  const warnings: string[] = [];
  const harness = createHarness({ enabled: true, announce: false, scenarios: post({ slug: SLOW_SLUG, code: 'ABC' }), logger: { warn: (message) => warnings.push(message), error: () => {} }, contracts: { openapi: [document] } });
  const app = await startRelayApp(harness);
  try {
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.startsWith('Contracts: slugs.yaml: ')).toBe(true);
    expect(warnings[0]!.slice('Contracts: slugs.yaml: '.length)).toMatch(WARNING);
    const client = app.newTest();
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const relayed = await app.relay(client, { url: `${API}/posts/${SLOW_SLUG.slice(0, -1)}` });
    delay.disable();
    expect(relayed).toEqual({ status: 200, body: JSON.stringify({ slug: SLOW_SLUG, code: 'ABC' }) });
    expect((await client.calls())[0]?.contractViolations).toEqual([]);
    // Before: 24 s on this pattern and slug. A generous bound: the pattern is simply not run.
    expect(delay.max / 1e6).toBeLessThan(500);
  } finally {
    await app.close();
  }
});

test('serve --openapi: the warning is in the start-up log', async () => {
  const server = await startServe(['--openapi', document, scenarios]);
  try {
    const line = server.output().split('\n').find((text) => text.includes(POINTER));
    expect(line?.slice(line.indexOf(POINTER))).toMatch(WARNING);
  } finally {
    await server.stop();
  }
});
