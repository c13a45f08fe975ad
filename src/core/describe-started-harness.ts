import type { HarnessEndpoints, UnhandledCallStrategy } from './types.js';

/**
 * The line a harness logs when it starts: that it is on, how many scenarios it has, where the
 * control endpoints are, and what happens to calls no mock answers. One line, so it is
 * found in an app's start-up log at a glance.
 */
export function describeStartedHarness(scenarioCount: number, endpoints: Readonly<Required<HarnessEndpoints>>, unhandled: UnhandledCallStrategy): string {
  const control = [
    `POST|DELETE ${endpoints.setScenario}`,
    `GET ${endpoints.getScenario}`,
    `GET ${endpoints.getState}`,
    `GET ${endpoints.scenarios}`,
  ];
  const strategy = typeof unhandled === 'function' ? 'a function' : `'${unhandled}'`;
  return `on: intercepting outgoing calls with ${scenarioCount} ${scenarioCount === 1 ? 'scenario' : 'scenarios'}; control endpoints ${control.join(', ')}; unhandled calls: ${strategy}.`;
}
