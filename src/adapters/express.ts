/**
 * @module
 * Express adapter: `app.use(harnessMiddleware(harness))`.
 */
import type { ErrorRequestHandler, NextFunction, Request, RequestHandler } from 'express';
import type { Harness } from '../core/create-harness.js';
import { invalidJsonIssue } from '../core/control/switch-request-body.js';
import { handleNodeControlRequest, pathnameOf, type NodeControlOptions } from './_node-http.js';

/** What body-parser puts on the errors it passes to `next(err)`. */
interface BodyParserError {
  type?: string;
  status?: number;
  message?: string;
}

/**
 * The two handlers `app.use()` takes (or spreads). Also typed as a `Function`, so that NestJS's
 * `consumer.apply(harnessMiddleware(harness))` compiles: Nest flattens the pair at run time.
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- Nest's MiddlewareConsumer.apply() takes `Function`s; nothing calls the pair itself.
export type HarnessMiddlewarePair = [RequestHandler, ErrorRequestHandler] & Function;

/**
 * The error handler, safe to call as a plain middleware: NestJS's `consumer.apply()` calls every
 * function it is given as `(req, res, next)`, the 4-argument error handler included (it answered
 * 500 "next is not a function" to every request, the harness disabled too).
 */
function asErrorHandler(handle: ErrorRequestHandler): ErrorRequestHandler {
  return function (error, req, res, next) {
    if (typeof next !== 'function' && typeof res === 'function') return (res as unknown as NextFunction)();
    return handle(error, req, res, next);
  };
}

/**
 * Express middleware that answers the control endpoints and runs every other request as its
 * test (the `x-harness-test-id` header), so the app's outgoing calls get that test's mocks.
 * Mount it before or after `express.json()`: an already-parsed body is used as it is, and a
 * body the parser rejected still gets SPEC's JSON error on the control paths.
 *
 * @example
 * const app = express();
 * app.use(express.json());
 * app.use(harnessMiddleware(harness));
 * @see https://github.com/scenario-harness/scenario-harness/blob/main/docs/express.md
 */
export function harnessMiddleware(harness: Harness): HarnessMiddlewarePair {
  if (!harness.enabled) return pair((_req, _res, next) => next(), asErrorHandler((error, _req, _res, next) => next(error)));

  const runAsTest = (req: Request, next: NextFunction) => harness.run(harness.testIdFrom(req.headers), next);

  // Not async: an app request (the common case) creates no promise here.
  const handleRequest: RequestHandler = (req, res, next) => {
    // originalUrl: control paths are absolute even when the middleware is mounted under a prefix.
    if (!harness.isControlPath(pathnameOf(req.originalUrl))) return runAsTest(req, next);
    const parsedBody = (req as { body?: unknown }).body;
    // A throw while handing on goes to Express too (as from the async handler this was), never unhandled.
    handleNodeControlRequest(harness, req, res, { url: req.originalUrl, parsedBody })
      .then((handled) => handled || runAsTest(req, next))
      .catch(next);
  };

  // @note A body parser mounted before us sends a malformed or oversized control body to the
  // error handlers, skipping `handleRequest`; this one answers it as the control endpoint would
  // a body it read itself (SPEC's 400 or 413), after the access check: a caller without the
  // token gets 401 whatever its body.
  const handleParserError: ErrorRequestHandler = (error: BodyParserError, req, res, next) => {
    if (!harness.isControlPath(pathnameOf(req.originalUrl)) || typeof error?.type !== 'string') return next(error);
    const bodyFailure = parserFailure(error);
    if (bodyFailure === undefined) return next(error);
    handleNodeControlRequest(harness, req, res, { url: req.originalUrl, bodyFailure })
      .then((handled) => handled || next(error))
      .catch(next);
  };

  return pair(handleRequest, asErrorHandler(handleParserError));
}

/** body-parser's error as the control endpoints' body result, or `undefined` for an error that is not about the body. */
function parserFailure(error: BodyParserError): NodeControlOptions['bodyFailure'] {
  if (error.type === 'entity.too.large') return { ok: false, status: 413 };
  if (error.status !== undefined && error.status >= 400 && error.status < 500) return { ok: false, status: 400, issue: invalidJsonIssue(error.message ?? error.type ?? 'invalid body') };
  return undefined;
}

function pair(request: RequestHandler, error: ErrorRequestHandler): HarnessMiddlewarePair {
  return [request, error] as HarnessMiddlewarePair;
}
