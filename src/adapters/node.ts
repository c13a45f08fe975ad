/**
 * @module
 * node:http adapter: `http.createServer(withHarness(harness, listener))`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { jsonAnswer } from '../core/control/control-call.js';
import { consoleLogger } from '../core/dev-utils.js';
import type { Harness } from '../core/create-harness.js';
import { isHarnessError } from '../core/errors.js';
import { handleNodeControlRequest, pathnameOf, sendAnswer } from './_node-http.js';

/** A node:http request listener; it may be async. */
export type NodeRequestListener = (req: IncomingMessage, res: ServerResponse) => unknown;

/**
 * Wrap a node:http request listener: control requests are answered, every other request runs
 * as its test (the `x-harness-test-id` header). Disabled harness: requests go straight to `listener`.
 *
 * @example
 * const server = http.createServer(withHarness(harness, (req, res) => { ... }));
 * @see https://github.com/scenario-harness/scenario-harness/blob/main/docs/node-http.md
 */
export function withHarness(harness: Harness, listener: NodeRequestListener): (req: IncomingMessage, res: ServerResponse) => void {
  if (!harness.enabled) return (req, res) => void listener(req, res);
  /**
   * Run the app's listener as its test.
   * @note A harness that was never started refuses (`NOT_STARTED`, thrown by run()); thrown from
   * a request listener it would crash the server, so it becomes a 500 that carries the fix.
   */
  const runAsTest = (testId: string, req: IncomingMessage, res: ServerResponse) => {
    try {
      harness.run(testId, () => listener(req, res));
    } catch (error) {
      if (!isHarnessError(error) || error.code !== 'NOT_STARTED') throw error;
      sendAnswer(res, jsonAnswer({ error: error.message }, 500));
    }
  };
  return (req, res) => {
    const testId = harness.testIdFrom(req.headers);
    if (!harness.isControlPath(pathnameOf(req.url))) {
      runAsTest(testId, req, res);
      return;
    }
    handleNodeControlRequest(harness, req, res).then(
      (handled) => {
        if (!handled) runAsTest(testId, req, res);
      },
      (error: unknown) => {
        res.statusCode = 500;
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ error: 'Internal server error' }));
        consoleLogger.error('Failed to answer a control request', error);
      },
    );
  };
}
