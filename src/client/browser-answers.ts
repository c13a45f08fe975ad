import { quote } from '../core/dev-utils.js';
import { isBrowserCallAnswer, type BrowserCallAnswer, type BrowserCallRequest } from './browser-call.js';
import type { ControlConnection } from './control-connection.js';

/*
 * Browser answers: a call the test's browser made, answered by the app from the test's session.
 * The runner's own routing (Playwright's `harnessBrowser`, Cypress `cy.intercept`) replays the
 * answer; the request and answer shapes live in browser-call.ts.
 */

export async function answer(connection: ControlConnection, call: BrowserCallRequest): Promise<BrowserCallAnswer> {
  const action = `answer the browser's call ${call.method} ${call.url} for test ${quote(connection.testId)}`;
  const response = await connection.send(action, 'POST', connection.endpoints.answer, call);
  if (response.status !== 200 || !isBrowserCallAnswer(response.body)) connection.fail(action, 'POST', connection.endpoints.answer, response);
  return response.body as BrowserCallAnswer;
}
