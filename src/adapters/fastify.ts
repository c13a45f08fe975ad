/**
 * @module
 * Fastify adapter: `app.register(harnessPlugin, { harness })`.
 */
import { AsyncResource } from 'node:async_hooks';
import type { FastifyPluginCallback, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import fp from 'fastify-plugin';
import type { Harness } from '../core/create-harness.js';
import { controlAnswerFor, pathnameOf } from './_node-http.js';

/** Options of {@link harnessPlugin}. */
export interface HarnessPluginOptions {
  /** The harness whose control endpoints and test context the plugin serves. */
  harness: Harness;
}

/** Where a request keeps the async scope entered in `onRequest`, to re-enter it in `preValidation`. */
const TEST_SCOPE = Symbol('scenario-harness.test-scope');
type ScopedRequest = FastifyRequest & { [TEST_SCOPE]: AsyncResource | null };

/** Answer a control request through Fastify's reply (its onSend hooks and logging still run); false for any other. */
async function answerControlRequest(harness: Harness, request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
  const answer = await controlAnswerFor(harness, request.raw, { url: request.url });
  if (answer === null) return false;
  reply.code(answer.status).headers(answer.headers).send(answer.text);
  return true;
}

const plugin: FastifyPluginCallback<HarnessPluginOptions> = (fastify, { harness }, done) => {
  if (typeof harness?.handle !== 'function') {
    return done(new TypeError(`Expected the "harness" option of harnessPlugin to be a harness from createHarness(), instead got ${typeof harness}.`));
  }
  if (!harness.enabled) return done();

  /** Run the rest of the request as its test, in a scope `preValidation` can re-enter. */
  const enterTest = (request: FastifyRequest, next: HookHandlerDoneFunction) =>
    harness.run(harness.testIdFrom(request.headers), () => {
      const scope = new AsyncResource('scenario-harness');
      (request as ScopedRequest)[TEST_SCOPE] = scope;
      scope.runInAsyncScope(next, request.raw);
    });

  fastify.decorateRequest(TEST_SCOPE, null);

  // @note Control requests are answered here, before Fastify's content-type parsers run: the
  // body is read as the core reads it, whatever parsers the app registered, and a malformed
  // one gets SPEC's 400 rather than Fastify's FST_ERR_CTP_INVALID_JSON_BODY. A control path
  // with no route is answered too: onRequest hooks run for Fastify's 404 handler.
  fastify.addHook('onRequest', (request, reply, next) => {
    if (!harness.isControlPath(pathnameOf(request.url))) return enterTest(request, next);
    answerControlRequest(harness, request, reply).then((answered) => {
      if (!answered) enterTest(request, next);
    }, next);
  });

  // @note onRequest and preParsing run inside the scope entered above; preValidation,
  // preHandler and the handler run later, from a callback (the body stream's 'end', a parser's
  // or an app hook's), in whatever async context that callback has. Fastify 5's own
  // content-type parser carries the request's context across, but a hook or parser that
  // resumes from another context (a pool's callback, a multipart parser) drops the test ID,
  // so the scope is re-entered here, as @fastify/request-context does.
  // @see https://github.com/fastify/fastify-request-context/blob/main/index.js
  // @see https://github.com/nodejs/node/issues/34430
  // @see https://github.com/nodejs/node/issues/33723
  // @see https://github.com/fastify/fastify/issues/3570
  // @see https://github.com/fastify/fastify-request-context/issues/153
  fastify.addHook('preValidation', (request, _reply, next) => {
    const scope = (request as ScopedRequest)[TEST_SCOPE];
    if (scope === null) return next();
    scope.runInAsyncScope(next, request.raw);
  });

  done();
};

/**
 * Fastify plugin that answers the control endpoints and runs every other request as its test
 * (the `x-harness-test-id` header), through body parsing, so the app's outgoing calls get
 * that test's mocks. It escapes encapsulation: register it once on the root instance.
 *
 * @example
 * const app = Fastify();
 * await app.register(harnessPlugin, { harness });
 * app.post('/orders', async (request) => placeOrder(request.body));
 * @see https://github.com/scenario-harness/scenario-harness/blob/main/docs/fastify.md
 */
export const harnessPlugin = fp(plugin, { name: 'scenario-harness', fastify: '4.x || 5.x' });
