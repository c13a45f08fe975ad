import { HarnessError } from './errors.js';
import type { CallListener } from './interception/call-outcome.js';
import { installClientRequestSockets, outsideInterception } from './interception/client-request-sockets.js';
import { installFetchPatch, type UndiciDispatchers } from './interception/fetch-patch.js';
import { ensureDefaultDispatcher, installDispatcher } from './interception/install-dispatcher.js';
import { interceptionFailed } from './interception/interception-failed.js';
import { installNodeHttpInterceptor } from './interception/node-http-interceptor.js';
import { installNodeHttpPropagation } from './interception/node-http-propagation.js';
import { installGlobalWebSocketPatch } from './interception/global-websocket-patch.js';
import { installNodeHttpUpgrades } from './interception/node-http-upgrades.js';
import { installNodeHttpViaLoopback } from './interception/node-http-via-loopback.js';
import { startSocketBridge, type SocketBridge } from './interception/socket-bridge.js';
import { decideCall, decideCallNow, interceptionRegistry, isConnectionBlocked, registryLogger, shouldPropagate, workerGuardRules, type InstalledLayers } from './interception/registry.js';
import { runtimeLayers } from './interception/runtime-layers.js';
import { installSocketGuard } from './interception/socket-guard.js';
import { installWorkerPatch } from './interception/worker-patch.js';
import { tryGetTestId } from './test-context.js';

/**
 * Node's own fetch speaks undici 8's handler protocol from Node 26 on. Its pass-through calls go
 * to the dispatcher of that shape: handed to the legacy slot's wrapper, they would be forced
 * down to HTTP/1.1 (undici 8's Dispatcher1Wrapper turns allowH2 off).
 */
const FETCH_HANDLERS_ARE_NEW_STYLE = Number(process.versions.undici?.split('.')[0] ?? 0) >= 8;

export type { CallListener } from './interception/call-outcome.js';

/** What the layers must replace, as `owner.key` names for messages. */
function patchTargets(http: object, https: object, net: object): [owner: object, key: string, name: string][] {
  return [
    [globalThis, 'fetch', 'globalThis.fetch'],
    [http, 'request', 'http.request'],
    [http, 'get', 'http.get'],
    [http, 'ClientRequest', 'http.ClientRequest'],
    [https, 'request', 'https.request'],
    [https, 'get', 'https.get'],
    [net, 'connect', 'net.Socket.prototype.connect'],
  ];
}

/** The globals that cannot be replaced: read-only and non-configurable. */
function lockedGlobals(targets: [owner: object, key: string, name: string][]): string[] {
  return targets
    .filter(([owner, key]) => {
      const descriptor = Object.getOwnPropertyDescriptor(owner, key);
      return descriptor !== undefined && !descriptor.configurable && !(descriptor.writable ?? descriptor.set !== undefined);
    })
    .map(([, , name]) => name);
}

const FROZEN_REMEDY =
  'Something froze them before harness.start() (a security lockdown such as SES, a polyfill or a test setup file defining them read-only and non-configurable): start the harness before it runs, or leave these globals writable in the app under test.';

/** The current test ID, for a call to a host the harness propagates to (`propagate.hosts`). */
function propagatedTestId(url: URL): string | undefined {
  return shouldPropagate(url) ? tryGetTestId() : undefined;
}

/**
 * Install every layer the runtime allows (runtime-layers.ts): the undici global dispatcher (fetch
 * references captured before start, the undici package; Node only), the fetch patch (the fast
 * path for `globalThis.fetch`), node:http/https through the interception library, the socket
 * guard, and the guard of the worker threads the app starts (Node only).
 *
 * @note The layers are imported statically: an `import()` of our own modules here, awaited by a
 * top-level `await harness.start()` in an app whose bundler split them into chunks that import
 * back from the waiting chunk, never finished (Node exited with code 13). Only the interception
 * library itself loads on first use (node-http-interceptor.ts, through importLazily), so
 * `enabled: false` loads none of it; Node's own modules come from `process.getBuiltinModule`,
 * which no bundler rewrites.
 */
async function installLayers(): Promise<InstalledLayers> {
  // Node's own modules, got here rather than imported: with `enabled: false` none of them need load.
  const [http, https, net] = [process.getBuiltinModule('node:http'), process.getBuiltinModule('node:https'), process.getBuiltinModule('node:net')];
  // Checked before patching anything: a half-applied patch cannot always undo itself.
  const locked = lockedGlobals(patchTargets(http, https, net.Socket.prototype));
  if (locked.length > 0) throw interceptionFailed(`${locked.join(', ')} cannot be replaced (read-only and non-configurable)`, FROZEN_REMEDY);
  if (typeof globalThis.fetch !== 'function') throw interceptionFailed('globalThis.fetch is missing', 'Run the app on Node.js 22.12 or later, where fetch is built in (on Node 22, without --no-experimental-fetch).');

  const runtime = runtimeLayers();
  const undo: (() => void)[] = [];
  const uninstall = () => {
    for (const step of undo.splice(0).reverse()) step();
  };
  try {
    // @note First in, last out: it syncs the ESM exports of Node's modules, which must happen
    // while no other layer has node:http patched, or ESM imports would keep a patched function.
    if (runtime.workerGuard) undo.push(installWorkerPatch({ rules: workerGuardRules, report: (message) => registryLogger().error(message) }));
    // The harness's WebSocket server, where the clients of the upgrades a socket mock answers are sent (socket-bridge.ts).
    const bridge = await startSocketBridge((message) => registryLogger().error(message));
    undo.push(() => bridge.stop());
    const { undici, check } = runtime.undiciDispatcher ? await installUndiciLayer(undo, bridge) : { undici: undefined, check: () => {} };
    let reported = false;
    const reportUnfinishable = (message: string) => {
      if (reported) return;
      reported = true;
      registryLogger().warn(message);
    };
    undo.push(installFetchPatch({ decide: decideCall, decideNow: decideCallNow, undici, reportUnfinishable, beforeCall: check, propagatedTestId }));
    // Beneath the interception library: it holds every socket until a request on it is decided,
    // and the guard judges only the connections it then really makes (socket-guard.ts).
    undo.push(installSocketGuard({ isBlocked: isConnectionBlocked, report: (message) => registryLogger().error(message.replace(/^\[scenario-harness\] /, '')) }));
    if (runtime.nodeHttp === 'loopback') {
      undo.push(await installNodeHttpViaLoopback({ decide: decideCall }));
      // Bun's and Deno's WebSocket is their own: neither undici's dispatcher nor node:http sees it.
      undo.push(installGlobalWebSocketPatch({ bridge, decide: decideCall }));
    }
    else {
      undo.push(await installNodeHttpSockets());
      // Above the library: it sees only the sockets of node:http client requests.
      undo.push(installClientRequestSockets());
    }
    undo.push(installNodeHttpPropagation({ http, https }, { testIdFor: propagatedTestId }));
    // Outermost: an upgrade is sent to the bridge before any other layer sees it.
    if (runtime.nodeHttp === 'sockets') undo.push(installNodeHttpUpgrades({ bridge, decide: decideCall, outsideInterception }));
    return { uninstall, check, bridge };
  } catch (error) {
    uninstall();
    if (error instanceof HarnessError) throw error;
    throw interceptionFailed(`a layer threw while patching (${(error as Error).message})`, FROZEN_REMEDY, error);
  }
}

/** node:http/https through the interception library on Node's own sockets; refused when it did not apply. */
async function installNodeHttpSockets(): Promise<() => void> {
  const nodeHttp = await installNodeHttpInterceptor({ decide: decideCall });
  // @note An interceptor that finds its global unfit logs and returns without patching; only its readyState tells. Refuse to run half-blind.
  // @see https://github.com/mswjs/interceptors/blob/main/src/interceptor.ts (apply, predicate)
  if (nodeHttp.readyState !== 'ACTIVE') {
    nodeHttp.dispose();
    throw interceptionFailed(
      'the node:http interceptor did not apply',
      `Check that node:http is Node's own (not replaced by a module that cannot be patched) and that nothing made it non-configurable; run with DEBUG=* to see the interceptor's reason.`,
    );
  }
  return () => nodeHttp.dispose();
}

/**
 * The harness's undici global dispatcher (Node's fetch is undici), with the dispatchers the fetch
 * patch hands calls to and the check that notices a dispatcher the app set after start.
 */
async function installUndiciLayer(undo: (() => void)[], bridge: SocketBridge | undefined): Promise<{ undici: UndiciDispatchers; check: () => void }> {
  await ensureDefaultDispatcher(globalThis.fetch);
  const dispatcher = installDispatcher({ decide: decideCall, decideNow: decideCallNow, propagate: shouldPropagate, bridge });
  undo.push(() => dispatcher.uninstall());
  const check = () => {
    if (!dispatcher.readopt()) return;
    registryLogger().error(
      `The app replaced undici's global dispatcher after harness.start() (setGlobalDispatcher). The harness put its own back in front and now hands unanswered calls to the new one, but calls made in between may have reached the network. Call setGlobalDispatcher() before harness.start().`,
    );
  };
  return { undici: { passDispatcher: () => dispatcher.fallback(FETCH_HANDLERS_ARE_NEW_STYLE), harnessDispatcher: dispatcher.dispatcher }, check };
}

/** Start routing intercepted calls to `listener`, installing the layers on first use. */
export async function addCallListener(listener: CallListener): Promise<void> {
  const state = interceptionRegistry();
  if (state.listeners.includes(listener)) return;
  state.layers ??= installLayers();
  try {
    await state.layers;
  } catch (error) {
    state.layers = undefined;
    throw error;
  }
  state.listeners.push(listener);
}

/** Stop routing calls to `listener`; the last one out restores every patched global. */
export async function removeCallListener(listener: CallListener): Promise<void> {
  const state = interceptionRegistry();
  const index = state.listeners.indexOf(listener);
  if (index === -1) return;
  state.listeners.splice(index, 1);
  if (state.listeners.length === 0 && state.layers !== undefined) {
    const pending = state.layers;
    state.layers = undefined;
    (await pending).uninstall();
  }
}

/** The socket bridge of the installed layers (`undefined` while no harness is started). */
export async function socketBridge(): Promise<SocketBridge | undefined> {
  const layers = interceptionRegistry().layers;
  return layers === undefined ? undefined : (await layers).bridge;
}

/** Notice (and repair) a layer the app replaced since start; cheap enough for every control call. */
export async function checkInterception(): Promise<void> {
  const layers = interceptionRegistry().layers;
  if (layers !== undefined) (await layers).check();
}
