/**
 * @module
 * node:http adapter: `http.createServer(withHarness(harness, listener))`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Harness } from '../core/create-harness.js';
import { serveAsTest } from './_node-http.js';

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
  return (req, res) => serveAsTest(harness, req, res, () => listener(req, res));
}

export { scopeIncomingRequests } from './scope-incoming-requests.js';
