import type { ScenarioId } from '../core/create-harness.js';
import { quote } from '../core/dev-utils.js';
import type { ActiveScenario, ScenarioMap, ScenarioSummary } from '../core/types.js';
import type { ControlConnection } from './control-connection.js';
import { isRecord } from './is-record.js';

/*
 * Switching: which scenario (and variant) a test runs under, what the app offers, and the end of
 * the test's session. `HarnessClient` documents each call; these are their bodies.
 */

export interface SwitchScenarioOptions<V extends string = string> {
  /**
   * A variant of the scenario: typed from the variants the scenario declares, any string when
   * it declares none. The app accepts and echoes any name (SPEC §2) and warns about an
   * undeclared one, which this client logs.
   */
  variant?: V;
}

/** The active scenario of a test, as `GET /__scenario__` reports it. */
export interface ActiveScenarioInfo<S extends ScenarioMap = ScenarioMap> extends ActiveScenario {
  scenarioId: ScenarioId<S>;
  scenarioName?: string;
}

/** One scenario of the app's catalogue (`GET /__harness__/scenarios`). */
export interface ScenarioInfo<S extends ScenarioMap = ScenarioMap> extends ScenarioSummary {
  id: ScenarioId<S>;
}

export async function switchScenario(connection: ControlConnection, scenarioId: string, variant: string | undefined): Promise<void> {
  const action = `switch test ${quote(connection.testId)} to scenario ${quote(scenarioId)}${variant === undefined ? '' : ` (variant ${quote(variant)})`}`;
  const body = variant === undefined ? { scenario: scenarioId } : { scenario: scenarioId, variant };
  const response = await connection.send(action, 'POST', connection.endpoints.setScenario, body);
  if (response.status !== 200) connection.fail(action, 'POST', connection.endpoints.setScenario, response);
  // The switch took; the app's hint (an undeclared variant) is a warning, not a failure.
  if (response.hint !== undefined) {
    connection.logger.warn(`Switched test ${quote(connection.testId)} to scenario ${quote(scenarioId)}, but: ${response.hint}`);
  }
}

export async function getActiveScenario<S extends ScenarioMap>(connection: ControlConnection): Promise<ActiveScenarioInfo<S> | undefined> {
  const action = `read the active scenario of test ${quote(connection.testId)}`;
  const response = await connection.send(action, 'GET', connection.endpoints.getScenario);
  // SPEC §4.2: 404 with the test ID in the body means "no scenario selected"; any other 404 is a misconfiguration.
  if (response.status === 404 && isRecord(response.body) && response.body.testId === connection.testId) return undefined;
  if (response.status !== 200 || !isRecord(response.body)) connection.fail(action, 'GET', connection.endpoints.getScenario, response);
  const { scenarioId, scenarioName, variant } = response.body as { scenarioId: ScenarioId<S>; scenarioName?: string; variant?: string };
  return { scenarioId, ...(scenarioName === undefined ? {} : { scenarioName }), ...(variant === undefined ? {} : { variant }) };
}

export async function listScenarios<S extends ScenarioMap>(connection: ControlConnection): Promise<ScenarioInfo<S>[]> {
  const action = 'list the scenarios';
  const response = await connection.send(action, 'GET', connection.endpoints.scenarios);
  if (response.status !== 200 || !isRecord(response.body) || !Array.isArray(response.body.scenarios)) {
    connection.fail(action, 'GET', connection.endpoints.scenarios, response);
  }
  return (response.body as { scenarios: ScenarioInfo<S>[] }).scenarios;
}

/** The app forgets the test on a `DELETE` of the path that switched it (SPEC §4). */
export async function endTest(connection: ControlConnection): Promise<void> {
  const action = `end test ${quote(connection.testId)}`;
  const response = await connection.send(action, 'DELETE', connection.endpoints.setScenario);
  if (response.status !== 200) connection.fail(action, 'DELETE', connection.endpoints.setScenario, response);
}
