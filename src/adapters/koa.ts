/**
 * @module
 * Koa adapter: `app.use(harnessMiddleware(harness))`.
 */
import type { Context, Middleware } from 'koa';
import type { Harness } from '../core/create-harness.js';
import type { ControlAnswer } from '../core/control/control-call.js';
import { invalidJsonIssue } from '../core/control/switch-request-body.js';
import { controlAnswerFor, pathnameOf, type NodeControlOptions } from './_node-http.js';

/** Where {@link harnessParserErrorHandler} leaves a control request's parser error for the middleware. */
const PARSER_ERROR = Symbol.for('scenario-harness.parser-error');

/** What co-body and raw-body (behind @koa/bodyparser and koa-body) put on their errors. */
interface BodyParserError extends Error {
  status?: number;
}

/**
 * The body a parser mounted before us read, or `undefined` to read the stream. @koa/bodyparser
 * keeps the text it parsed as `rawBody`; for a content type it does not parse it sets `body`
 * to `{}` and leaves the stream unread, so `body` counts only once the stream has ended.
 */
function bodyReadByParser(ctx: Context): unknown {
  const { body, rawBody } = ctx.request as { body?: unknown; rawBody?: unknown };
  if (typeof rawBody === 'string') return rawBody;
  return ctx.req.readableEnded ? body : undefined;
}

/**
 * A control request's answer from the core, which checks access first: a body the parser
 * rejected is answered (SPEC's 400 or 413) only when the endpoint reads it, like one it read itself.
 */
function answerFor(harness: Harness, ctx: Context): Promise<ControlAnswer | null> {
  const error = (ctx.state as Record<symbol, BodyParserError | undefined>)[PARSER_ERROR];
  const bodyFailure: NodeControlOptions['bodyFailure'] =
    error === undefined ? undefined : error.status === 413 ? { ok: false, status: 413 } : { ok: false, status: 400, issue: invalidJsonIssue(error.message) };
  return controlAnswerFor(harness, ctx.req, { url: ctx.originalUrl, parsedBody: bodyReadByParser(ctx), bodyFailure });
}

/**
 * Koa middleware that answers the control endpoints and runs every other request as its test
 * (the `x-harness-test-id` header), so the app's outgoing calls get that test's mocks. Mount it
 * before or after a body parser: a body the parser read is used as it is. Mounted first, it
 * answers control requests (access check first) without calling `next()`, so no parser after it
 * can answer them; a parser before it needs {@link harnessParserErrorHandler}.
 *
 * @example
 * const app = new Koa();
 * app.use(harnessMiddleware(harness));
 * app.use(bodyParser());
 * @see https://github.com/scenario-harness/scenario-harness/blob/main/docs/koa.md
 */
export function harnessMiddleware(harness: Harness): Middleware {
  if (!harness.enabled) return (_ctx, next) => next();
  return async (ctx, next) => {
    // originalUrl: control paths are absolute even under koa-mount.
    const answer = harness.isControlPath(pathnameOf(ctx.originalUrl)) ? await answerFor(harness, ctx) : null;
    if (answer === null) return harness.run(harness.testIdFrom(ctx.headers), next);
    ctx.status = answer.status;
    ctx.set(answer.headers);
    ctx.body = answer.text;
  };
}

/**
 * An `onError` for `@koa/bodyparser` mounted *before* `harnessMiddleware`: a control request
 * whose body the parser rejects still gets SPEC's JSON answer (400 `Invalid request body`, or
 * 413) from the middleware. Every other error is rethrown, as without `onError`.
 *
 * @example
 * app.use(bodyParser({ onError: harnessParserErrorHandler(harness) }));
 * app.use(harnessMiddleware(harness));
 * @see https://github.com/scenario-harness/scenario-harness/blob/main/docs/koa.md
 */
export function harnessParserErrorHandler(harness: Harness): (error: Error, ctx: Context) => void {
  return (error, ctx) => {
    // @note Koa errors travel back up the middleware chain, so a middleware mounted after the
    // parser never sees them; the parser's onError hook is the only place to catch them there.
    const { status } = error as BodyParserError;
    if (!harness.isControlPath(pathnameOf(ctx.originalUrl)) || status === undefined || status < 400 || status >= 500) throw error;
    (ctx.state as Record<symbol, unknown>)[PARSER_ERROR] = error;
  };
}
