import type { ControlRoute } from '../../core/control/control-routes.js';
import { answerRoutes, type PartDefinition } from '../../core/parts/harness-part.js';
import { createStreamRegistry } from './stream-registry.js';
import { streamsRoute } from './streams-route.js';

const ROUTES: readonly ControlRoute[] = [{ endpoint: 'streams', methods: ['GET', 'POST'], listed: 'when-on', access: 'guarded', bodyLimit: 'maxBodyBytes' }];

/**
 * The streams a test holds (`hold: { afterChunks }` on a stream or an `llm` answer): on the call
 * path it gives each call of such a mock a pacer that stops the stream there, under the call's
 * test; `endpoints.streams` lists a test's streams and releases, steps or aborts one. A test sees
 * and moves only its own streams, so tests streaming the same URL at once never cross.
 */
export const STREAMS_PART: PartDefinition = {
  name: 'stream holds',
  routes: ROUTES,
  create() {
    const registry = createStreamRegistry();
    return {
      routes: answerRoutes(ROUTES, { streams: (request) => streamsRoute(request, registry) }),
      steps: {
        shape: {
          stream(call, testId, mock, reply) {
            const stream = reply.stream!;
            if (stream.hold === undefined) return reply;
            const pacer = registry.pacer(testId, { id: stream.id ?? mock.id ?? mock.key, method: call.method, url: call.url.href, total: stream.chunks.length, afterChunks: stream.hold.afterChunks });
            return { ...reply, stream: { ...stream, pacer } };
          },
        },
      },
    };
  },
};
