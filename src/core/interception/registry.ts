import { NOT_NOW, PASS, type CallListener, type CallOutcome, type ImmediateOutcome } from './call-outcome.js';
import { isRecordedCall } from '../recording/recorded-call-context.js';
import type { OutgoingCall } from './outgoing-call.js';
import type { WorkerGuardRules } from './worker-guard-source.js';

/** The layers that are installed while at least one harness is started. */
export interface InstalledLayers {
  /** Undo every patch, restoring each global exactly as it was. */
  uninstall(): void;
  /** Check that nothing replaced a layer since it was installed; re-adopt and warn if so. */
  check(): void;
  /** The harness's WebSocket server (socket-bridge.ts), where clients of the sockets a socket mock answers are sent. */
  bridge?: SocketBridge;
}

interface InterceptionRegistry {
  listeners: CallListener[];
  /** Present while at least one listener is registered. */
  layers: Promise<InstalledLayers> | undefined;
}

import type { SocketBridge } from './socket-bridge.js';

const REGISTRY_KEY = Symbol.for('scenario-harness.interception');

/**
 * One set of layers per process, shared by every started harness and every copy of this module.
 * @note Two copies patching `fetch` and `http.request` would race to answer the same call.
 */
export function interceptionRegistry(): InterceptionRegistry {
  const global = globalThis as Record<symbol, InterceptionRegistry | undefined>;
  return (global[REGISTRY_KEY] ??= { listeners: [], layers: undefined });
}

/** The outcome of a call: the first started harness whose mocks answer it, else `unhandled` of the last one started. */
export async function decideCall(call: OutgoingCall): Promise<CallOutcome> {
  const { listeners } = interceptionRegistry();
  // One harness is the common case: skip the loop's bookkeeping.
  if (listeners.length === 1) return (await listeners[0]!.answer(call)) ?? listeners[0]!.unanswered(call);
  for (const listener of listeners) {
    const outcome = await listener.answer(call);
    if (outcome !== undefined) return outcome;
  }
  return listeners.at(-1)?.unanswered(call) ?? PASS;
}

/** `decideCall` without awaiting, for the calls one started harness can answer synchronously; else `NOT_NOW`. */
export function decideCallNow(call: OutgoingCall): ImmediateOutcome {
  const { listeners } = interceptionRegistry();
  return listeners.length === 1 ? (listeners[0]!.answerNow?.(call) ?? NOT_NOW) : NOT_NOW;
}

/** True when some started harness forbids unanswered connections, and none of them allows this host. */
export function isConnectionBlocked(hostname: string, port: number | undefined): boolean {
  // A recorded call goes to the real upstream whatever `unhandled` says; only its own connections do.
  if (isRecordedCall()) return false;
  const { listeners } = interceptionRegistry();
  let blocked = false;
  for (const listener of listeners) {
    if (listener.isAllowedHost(hostname, port)) return false;
    blocked ||= listener.blocksNetwork;
  }
  return blocked;
}

/** What the guard of a worker thread starting now needs, while some started harness forbids unanswered connections; else `undefined`. */
export function workerGuardRules(): WorkerGuardRules | undefined {
  const { listeners } = interceptionRegistry();
  if (!listeners.some((listener) => listener.blocksNetwork)) return undefined;
  return { allowHosts: listeners.flatMap((listener) => listener.allowHosts) };
}

/** True when a started harness wants the current test ID carried to this URL. */
export function shouldPropagate(url: URL): boolean {
  return interceptionRegistry().listeners.some((listener) => listener.propagatesTo(url));
}

/** The logger of the most recently started harness, for messages that belong to no single call. */
export function registryLogger(): CallListener['logger'] {
  return interceptionRegistry().listeners.at(-1)?.logger ?? { warn: console.warn, error: console.error };
}
