import type { ControlRoute } from '../../core/control/control-routes.js';
import { answerRoutes, type PartDefinition } from '../../core/parts/harness-part.js';
import { createTestStreams } from './shared-streams.js';
import { createStreamRegistry, type SharedStream } from './stream-registry.js';
import { streamsRoute } from './streams-route.js';

const ROUTES: readonly ControlRoute[] = [{ endpoint: 'streams', methods: ['GET', 'POST'], listed: 'never', access: 'guarded', bodyLimit: 'maxBodyBytes' }];

/**
 * The streams a test holds (across the app's processes when the store shares them: Redis, a process tree) (`hold: { afterChunks }` on a stream or an `llm` answer): on the call
 * path it gives each call of such a mock a pacer that stops the stream there, under the call's
 * test; `endpoints.streams` lists a test's streams and releases, steps or aborts one. A test sees
 * and moves only its own streams, so tests streaming the same URL at once never cross.
 */
export const STREAMS_PART: PartDefinition = {
  name: 'stream holds',
  routes: ROUTES,
  create({ store, logger }) {
    // The registry tells the store of each change; the store's side is made from the registry.
    const sharing: { onChange?(testId: string, stream: SharedStream): void } = {};
    const registry = createStreamRegistry({ onChange: (testId, stream) => sharing.onChange?.(testId, stream) });
    const { streams, onChange } = createTestStreams(registry, store, logger);
    sharing.onChange = onChange;
    return {
      routes: answerRoutes(ROUTES, { streams: (request) => streamsRoute(request, streams) }),
      steps: {
        shape: {
          stream(call, testId, mock, reply) {
            // Every streamed answer is followed (the journal shows how far it got); one with `hold` stops there.
            const stream = reply.stream!;
            const pacer = registry.pacer(testId, { id: stream.id ?? mock.id ?? mock.key, method: call.method, url: call.url.href, total: stream.chunks.length, afterChunks: stream.hold?.afterChunks ?? Infinity });
            return { ...reply, stream: { ...stream, pacer, key: pacer.key } };
          },
        },
      },
    };
  },
};
