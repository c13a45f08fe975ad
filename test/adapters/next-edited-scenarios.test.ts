/**
 * `createNextHarness` under `next dev`: Next evaluates the harness module once per bundle (same
 * definitions: the same harness, nothing restarts) and again after an edit (new definitions: they
 * answer at once, through every harness reference taken before, and switched tests keep their
 * sessions).
 */
import { createNextHarness } from 'scenario-harness/next';
import type { ScenarioMap } from 'scenario-harness';
import { afterAll, expect, test } from 'vitest';

const definitions = (version: string): ScenarioMap => ({
  default: { name: 'D', mocks: [{ url: 'https://api.next-edit.test/greeting', response: { body: `default ${version}` } }] },
  busy: {
    name: `Busy ${version}`,
    mocks: [{ url: 'https://api.next-edit.test/greeting', sequence: { responses: [{ body: `busy ${version} #1` }, { body: `busy ${version} #2` }], repeat: 'last' } }],
  },
});

const warnings: string[] = [];
const options = (version: string) => ({ enabled: true, announce: false, scenarios: definitions(version), logger: { info() {}, warn: (message: string) => warnings.push(message), error() {} } });
const harness = createNextHarness(options('v1'));
afterAll(() => harness.stop());

const greeting = (testId: string) => harness.run(testId, async () => (await fetch('https://api.next-edit.test/greeting')).text());

test('the same definitions from another bundle give the same harness, and nothing restarts', async () => {
  await harness.start();
  await harness.switchScenario('t1', 'busy');
  expect(await greeting('t1')).toBe('busy v1 #1');
  expect(createNextHarness(options('v1'))).toBe(harness);
  expect(await greeting('t1')).toBe('busy v1 #2');
  expect(warnings).toEqual([]);
});

test('edited definitions answer at once through the harness taken before, and the switched test keeps its session', async () => {
  const edited = createNextHarness(options('v2'));
  expect(edited).toBe(harness);
  await edited.start(); // waits for the edited harness's own start
  expect(await greeting('t1')).toBe('busy v2 #2');
  expect(await greeting('t2')).toBe('default v2');
  expect(harness.listScenarios().map((scenario) => scenario.name)).toEqual(['D', 'Busy v2']);
  expect(await harness.getActiveScenario('t1')).toEqual({ scenarioId: 'busy' });
  expect(warnings).toHaveLength(1);
  expect(warnings[0]).toContain('tests switched before keep their scenario, state, sequence positions and journal');
});
