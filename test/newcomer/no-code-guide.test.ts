/**
 * docs/no-code-setup.md followed word for word in a fresh folder from the packed tarball: an app
 * with no line of scenario-harness, started with `node --import scenario-harness/register` and
 * the environment the guide names, answers the guide's curl commands as it says.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { codeBlocks, read, section } from '../docs/markdown.js';
import { followWalkthrough, newcomerEnv, onPort, sh, walkthrough, type FollowedWalkthrough } from './follow-the-docs.js';

const guide = walkthrough(codeBlocks(section(read('docs/no-code-setup.md'), 'Try it')), 'examples/no-code');
let followed: FollowedWalkthrough | undefined;

beforeAll(async () => {
  followed = await followWalkthrough(guide, 'scenario-harness-no-code-');
}, 180_000);

afterAll(() => followed?.cleanUp());

test('the guide is complete: setup, an app and a scenario file, the start command with --import, its output and curl checks', () => {
  expect(guide.files.map((file) => file.path)).toEqual(['server.js', 'scenarios.yaml']);
  expect(guide.files.find((file) => file.path === 'server.js')?.content).not.toContain("'scenario-harness");
  expect(guide.start).toMatch(/^HARNESS_ENABLED=true HARNESS_SCENARIOS=scenarios\.yaml .*node --import scenario-harness\/register server\.js$/);
  expect(guide.checks.length).toBeGreaterThanOrEqual(4);
});

test('every curl command answers what the guide says, in order: the switch is per test', async () => {
  const seen = [];
  for (const { command } of guide.checks) seen.push({ command, output: (await sh(onPort(command, followed!.port), { cwd: followed!.folder, env: newcomerEnv() })).stdout.trim() });
  expect(seen).toEqual(guide.checks.map(({ command, expected }) => ({ command, output: expected })));
});
