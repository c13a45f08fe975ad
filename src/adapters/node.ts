/**
 * @module
 * node:http adapter: `http.createServer(withHarness(harness, listener))`.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Harness } from '../core/create-harness.js';
import { handleNodeControlRequest, pathnameOf } from './_node-http.js';

/**
 * Wrap a node:http request listener: control requests are answered, every other request runs
 * as its test (the `x-harness-test-id` header). Disabled harness: `listener` is returned as is.
 *
 * @example
 * const server = http.createServer(withHarness(harness, (req, res) => { ... }));
 * @see https://github.com/scenario-harness/scenario-harness#nodehttp
 */
export function withHarness<Req extends IncomingMessage = IncomingMessage, Res extends ServerResponse<Req> = ServerResponse<Req>>(
  harness: Harness,
  listener: RequestListener<typeof IncomingMessage, typeof ServerResponse> | ((req: Req, res: Res) => void | Promise<void>),
): (req: Req, res: Res) => void {
  if (!harness.enabled) return listener as (req: Req, res: Res) => void;
  const handler = listener as (req: Req, res: Res) => void;
  return (req, res) => {
    const testId = harness.testIdFrom(req.headers);
    if (!harness.isControlPath(pathnameOf(req.url))) {
      harness.run(testId, () => handler(req, res));
      return;
    }
    handleNodeControlRequest(harness, req, res).then(
      (handled) => {
        if (!handled) harness.run(testId, () => handler(req, res));
      },
      (error: unknown) => {
        res.statusCode = 500;
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ error: 'Internal server error' }));
        console.error('[scenario-harness] Failed to answer a control request', error);
      },
    );
  };
}
