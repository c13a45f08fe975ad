import { randomBytes } from 'node:crypto';
import { jsonAnswer } from '../../core/control/control-call.js';
import type { ControlRoute } from '../../core/control/control-routes.js';
import { DEFAULT_SCENARIO_ID } from '../../core/constants.js';
import { compileSocketList } from '../../core/engine/sockets/compile-socket-layers.js';
import type { CompiledSocket } from '../../core/engine/sockets/compile-socket.js';
import { ownSocketsOf } from '../../core/engine/sockets/own-socket-entry.js';
import { answerRoutes, type PartDefinition } from '../../core/parts/harness-part.js';
import { findSocketMock } from './find-socket-mock.js';
import { runLiveSocket } from './live-socket.js';
import { createOpenSockets } from './open-sockets.js';
import { shareOpenSockets } from './shared-sockets.js';
import { socketsRoute } from './sockets-route.js';

const ROUTES: readonly ControlRoute[] = [{ endpoint: 'sockets', methods: ['POST'], listed: 'never', access: 'guarded', bodyLimit: 'maxBodyBytes' }];

/** Tests whose own socket mocks stay compiled: more live tests with sockets of their own compile again. */
const MAX_COMPILED = 1000;

/**
 * WebSockets (a scenario's `sockets`, a test's own through the own-mocks endpoint): on the call
 * path it answers an HTTP Upgrade with the socket mock of the handshake's test, which then runs
 * on the real connection the socket bridge made with the app's client; `endpoints.sockets`
 * pushes frames to, and closes, the test's open sockets. A socket keeps the test ID it opened
 * with for its whole life.
 */
export const SOCKETS_PART: PartDefinition = {
  name: 'sockets',
  routes: ROUTES,
  create({ options, store, scenarios, limits, timing, logger }) {
    // A harness that intercepts nothing (the standalone server) is never handed a socket.
    if (options.intercept === false) {
      const none = async () => jsonAnswer({ error: 'No sockets here: this harness intercepts no outgoing calls (the standalone server answers HTTP calls only), so no socket mock is ever open to push to.' }, 404);
      return { on: false, routes: answerRoutes(ROUTES, { sockets: none }) };
    }
    const open = shareOpenSockets(createOpenSockets(), store, logger);
    const ownCompiled = new Map<string, { version: string; list: CompiledSocket[] }>();
    let connections = 0;
    // Connections are named per process: two replicas on one store must not both name one `s1`.
    const processTag = randomBytes(2).toString('hex');

    /** The test's own socket mocks, newest first, compiled once per version of its own mocks. */
    async function ownSockets(testId: string, version: string | undefined): Promise<readonly CompiledSocket[]> {
      if (version === undefined || store.readMocks === undefined) return [];
      const kept = ownCompiled.get(testId);
      if (kept?.version === version) return kept.list;
      const held = await store.readMocks(testId);
      const list = held === undefined ? [] : compileSocketList(ownSocketsOf(held.mocks).reverse(), ['sockets'], `own:${testId}`, { scenarioId: '', own: true }, [], { checkRegexes: false, judge: undefined });
      ownCompiled.delete(testId);
      ownCompiled.set(testId, { version, list });
      if (ownCompiled.size > MAX_COMPILED) ownCompiled.delete(ownCompiled.keys().next().value!);
      return list;
    }

    return {
      routes: answerRoutes(ROUTES, { sockets: (request) => socketsRoute(request, open) }),
      steps: {
        upgrade: {
          async answer(call, testId, session, { journal, outsideTest }) {
            if (call.upgrade !== 'websocket') return undefined;
            const found = findSocketMock(call, session, await ownSockets(testId, session?.mocks), scenarios.compiled);
            if (found === undefined) return undefined;
            const { mock, params, layer } = found;
            const active = session?.active;
            return {
              kind: 'socket',
              socket: {
                protocol: mock.protocol,
                open(connection, handshake) {
                  const event = {
                    url: handshake.url.href,
                    side: call.side === 'browser' ? ('browser' as const) : ('server' as const),
                    headers: handshake.headers,
                    connection: `s${++connections}-${processTag}`,
                    socketId: mock.id ?? `${mock.own ? 'own sockets' : `${mock.scenarioId}${mock.variant === undefined ? '' : `.variants.${mock.variant}`}.sockets`}[${mock.order}]`,
                    scenarioId: mock.own ? (active?.scenarioId ?? DEFAULT_SCENARIO_ID) : mock.scenarioId,
                    ...(mock.variant === undefined ? {} : { variant: mock.variant }),
                    layer,
                    ...(handshake.protocol === undefined ? {} : { protocol: handshake.protocol }),
                    ...(outsideTest ? { outsideTest: true as const } : {}),
                  };
                  let forget = () => {};
                  const live = runLiveSocket({
                    testId,
                    connection,
                    handshake,
                    mock,
                    params,
                    variant: active?.variant,
                    event,
                    journal: journal?.socket === undefined ? undefined : (entry) => journal.socket!(testId, entry),
                    store,
                    maxStateBytes: limits.maxStateBytes,
                    instant: timing === 'instant',
                    onEnd: () => forget(),
                  });
                  forget = open.add(live);
                },
              },
            };
          },
        },
      },
      async stop() {
        open.dropAll();
      },
    };
  },
};
