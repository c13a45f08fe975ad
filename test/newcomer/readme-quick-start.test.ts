/**
 * The README's quick start, followed word for word in a fresh folder from the packed tarball
 * (issue 15: "a fresh folder following the README verbatim works for Express"): its setup
 * commands, its files, its start command and its curl commands with the answers it documents.
 * What "word for word" allows itself is listed in follow-the-docs.ts.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { codeBlocks, read, section } from '../docs/markdown.js';
import { followWalkthrough, freePort, newcomerEnv, onPort, sh, startApp, typecheck, walkthrough, withTarball, type FollowedWalkthrough, type Walkthrough } from './follow-the-docs.js';

const quickStart: Walkthrough = walkthrough(codeBlocks(section(read('README.md'), 'Quick start (Express)')), 'examples/quick-start');
let followed: FollowedWalkthrough | undefined;
const folder = () => followed!.folder;

beforeAll(async () => {
  followed = await followWalkthrough(quickStart, 'scenario-harness-newcomer-');
}, 180_000);

afterAll(() => followed?.cleanUp());

test('the quick start is complete: setup, two files, a start command, its output and curl checks', () => {
  expect(quickStart.setup.some((command) => withTarball(command, '/x.tgz') !== command), 'an npm install of scenario-harness').toBe(true);
  expect(quickStart.files.map((file) => file.path)).toEqual(['scenarios.ts', 'server.ts']);
  expect(quickStart.start).toMatch(/^HARNESS_ENABLED=true /);
  expect(quickStart.output.length).toBeGreaterThan(0);
  expect(quickStart.checks.length).toBeGreaterThanOrEqual(4);
  expect(quickStart.run).toEqual([]);
});

test('every curl command of the quick start answers what the README says, in order', async () => {
  const seen = [];
  for (const { command } of quickStart.checks) {
    const { stdout } = await sh(onPort(command, followed!.port), { cwd: folder(), env: newcomerEnv() });
    seen.push({ command, output: stdout.trim() });
  }
  expect(seen).toEqual(quickStart.checks.map(({ command, expected }) => ({ command, output: expected })));
});

test('a switch is per test: the README shows t1 switched and t2 untouched', () => {
  const outputs = quickStart.checks.map(({ command, expected }) => ({ id: /x-harness-test-id: (\w+)/.exec(command)?.[1], profile: command.includes('/profile/'), expected }));
  const profiles = outputs.filter((check) => check.profile);
  expect(new Set(profiles.filter((check) => check.id === 't1').map((check) => check.expected)).size).toBe(2);
  expect(profiles.filter((check) => check.id === 't2').map((check) => check.expected)).toEqual([profiles[0]!.expected]);
});

test('the files compile as a strict NodeNext project against the installed package', async () => {
  await typecheck(folder(), quickStart.files.map((file) => file.path));
});

test('without HARNESS_ENABLED the harness is off, as the README says: POST /__scenario__ reaches Express', async () => {
  const offPort = await freePort();
  const command = quickStart.start!.replace(/^HARNESS_ENABLED=true /, '');
  const off = await startApp(command, [`Listening on http://127.0.0.1:${offPort}`], { cwd: folder(), env: newcomerEnv({ PORT: String(offPort) }) });
  try {
    // One line says it is off, why and how to turn it on (README: "says … once instead").
    expect(off.output()).toContain('[scenario-harness] disabled: enabled is false (HARNESS_ENABLED is not set), so no outgoing call is intercepted and /__scenario__ is not served');
    expect(off.output().match(/\[scenario-harness\]/g)).toHaveLength(1);
    expect(read('README.md')).toContain('`[scenario-harness] disabled: enabled is false (HARNESS_ENABLED is not set), …`');
    const { stdout } = await sh(`curl -s -X POST -d '{"scenario":"githubDown"}' 127.0.0.1:${offPort}/__scenario__`, { cwd: folder(), env: newcomerEnv() });
    expect(stdout).toContain('Cannot POST /__scenario__');
    expect(read('README.md')).toContain('`Cannot POST /__scenario__`');
  } finally {
    await off.stop();
  }
});
