import { DEFAULT_SCENARIO_ID } from '../../core/constants.js';
import type { CompiledScenario } from '../../core/engine/compile-scenarios.js';
import type { CompiledSocket } from '../../core/engine/sockets/compile-socket.js';
import type { OutgoingCall } from '../../core/interception/outgoing-call.js';
import type { SessionSnapshot } from '../../core/store/session-store.js';

/** The socket mock that answers a handshake, with the URL's params and the layer it came from. */
export interface FoundSocketMock {
  mock: CompiledSocket;
  params: Record<string, string>;
  layer: 'test' | 'variant' | 'scenario' | 'default';
}

/** The subprotocols a handshake offers (`Sec-WebSocket-Protocol`). */
export function offeredProtocols(call: OutgoingCall): string[] {
  return (call.headers.get('sec-websocket-protocol') ?? '').split(',').map((name) => name.trim()).filter(Boolean);
}

/** The best socket mock of one list: the more specific URL wins (`UrlPattern.rank`), then the one listed first. */
function bestOf(list: readonly CompiledSocket[], call: OutgoingCall, offered: readonly string[]): { mock: CompiledSocket; params: Record<string, string> } | undefined {
  let best: { mock: CompiledSocket; params: Record<string, string> } | undefined;
  const origin = call.url.origin.toLowerCase();
  for (const mock of list) {
    if (mock.protocol !== undefined && !offered.includes(mock.protocol)) continue;
    const params = mock.url.match(origin, call.url.pathname, call.url.href);
    if (params === undefined) continue;
    if (best === undefined || mock.url.rank > best.mock.url.rank) best = { mock, params };
  }
  return best;
}

/**
 * The socket mock a test's handshake gets: its own first (newest first), then its variant's,
 * its scenario's and `default`'s, as a call's mocks are layered.
 */
export function findSocketMock(call: OutgoingCall, session: SessionSnapshot | undefined, own: readonly CompiledSocket[], scenarios: ReadonlyMap<string, CompiledScenario>): FoundSocketMock | undefined {
  const offered = offeredProtocols(call);
  const active = session?.active;
  const scenario = active === undefined ? undefined : scenarios.get(active.scenarioId);
  const layers: [FoundSocketMock['layer'], readonly CompiledSocket[] | undefined][] = [
    ['test', own],
    ['variant', active?.variant === undefined ? undefined : scenario?.variantSockets.get(active.variant)],
    ['scenario', active?.scenarioId === DEFAULT_SCENARIO_ID ? undefined : scenario?.sockets],
    ['default', scenarios.get(DEFAULT_SCENARIO_ID)?.sockets],
  ];
  for (const [layer, list] of layers) {
    if (list === undefined || list.length === 0) continue;
    const found = bestOf(list, call, offered);
    if (found !== undefined) return { ...found, layer };
  }
  return undefined;
}
