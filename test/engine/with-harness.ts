import { randomUUID } from 'node:crypto';
import { createHarness, type Harness, type HarnessOptions, type ScenarioMap } from 'scenario-harness';
import { afterEach } from 'vitest';

const started: Harness[] = [];
/** Stop the harnesses this file's tests started; a file that must undo something beneath them afterwards calls it first. */
export async function stopStartedHarnesses(): Promise<void> {
  await Promise.all(started.splice(0).map((harness) => harness.stop()));
}
afterEach(stopStartedHarnesses);

/** A started harness that is stopped after the test, plus log capture. */
export async function startHarness<const S extends ScenarioMap>(scenarios: S, options: Partial<HarnessOptions<S>> = {}) {
  const logs: string[] = [];
  const harness = createHarness({
    enabled: true,
    unhandled: 'error',
    logger: { warn: (m) => logs.push(`warn: ${m}`), error: (m) => logs.push(`error: ${m}`) },
    ...options,
    scenarios,
  });
  await harness.start();
  started.push(harness as unknown as Harness);
  /** Run `fn` as a fresh test (or the given one) after switching it to `scenario`. */
  const asTest = async <T>(scenario: Extract<keyof S, string> | undefined, fn: (testId: string) => Promise<T>, testId: string = randomUUID()) => {
    if (scenario !== undefined) await harness.switchScenario(testId, scenario);
    return harness.run(testId, () => fn(testId));
  };
  return { harness, logs, asTest };
}

export const json = async (url: string, init?: RequestInit) => {
  const response = await fetch(url, init);
  return { status: response.status, body: (await response.json()) as unknown };
};
