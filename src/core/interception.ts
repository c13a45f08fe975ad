import { HarnessError } from './errors.js';

/** The part of the interception library's request controller we use. */
export interface CallController {
  respondWith(response: Response): void;
}

/** What one started harness does with intercepted calls. */
export interface CallListener {
  /** Answer the call if a mock of this harness matches it; true when answered. */
  answer(request: Request, controller: CallController): Promise<boolean>;
  /** Called on the most recently started harness when no harness answered. */
  unanswered(request: Request, controller: CallController): Promise<void>;
}

interface InterceptionRegistry {
  listeners: CallListener[];
  /** Present while at least one listener is registered. */
  interceptor: Promise<{ dispose(): void }> | undefined;
}

const REGISTRY_KEY = Symbol.for('scenario-harness.interception');

/**
 * One interceptor per process, shared by every started harness and every copy of this module.
 * @note Two interceptors would both patch `fetch` and `http.request` and race to answer.
 */
function registry(): InterceptionRegistry {
  const global = globalThis as Record<symbol, InterceptionRegistry | undefined>;
  return (global[REGISTRY_KEY] ??= { listeners: [], interceptor: undefined });
}

async function dispatch(request: Request, controller: CallController): Promise<void> {
  const { listeners } = registry();
  for (const listener of listeners) {
    if (await listener.answer(request, controller)) return;
  }
  await listeners.at(-1)?.unanswered(request, controller);
}

/** What the interceptors must replace, as `owner.key` names for messages. */
function patchTargets(http: object, https: object): [owner: object, key: string, name: string][] {
  return [
    [globalThis, 'fetch', 'globalThis.fetch'],
    [http, 'request', 'http.request'],
    [http, 'get', 'http.get'],
    [http, 'ClientRequest', 'http.ClientRequest'],
    [https, 'request', 'https.request'],
    [https, 'get', 'https.get'],
  ];
}

/** The globals that cannot be replaced: read-only and non-configurable. */
function lockedGlobals(http: object, https: object): string[] {
  return patchTargets(http, https)
    .filter(([owner, key]) => {
      const descriptor = Object.getOwnPropertyDescriptor(owner, key);
      return descriptor !== undefined && !descriptor.configurable && !(descriptor.writable ?? descriptor.set !== undefined);
    })
    .map(([, , name]) => name);
}

function interceptionFailed(reason: string, remedy: string, cause?: unknown): HarnessError {
  return new HarnessError(
    'INTERCEPTION_FAILED',
    `Failed to start intercepting outgoing calls: ${reason}. Outgoing calls would reach the real network, so the harness refuses to start. ${remedy}`,
    { cause },
  );
}

const FROZEN_REMEDY =
  'Something froze them before harness.start() (a security lockdown such as SES, a polyfill or a test setup file defining them read-only and non-configurable): start the harness before it runs, or leave these globals writable in the app under test.';

async function installInterceptor(): Promise<{ dispose(): void }> {
  // Loaded here, never at import time: with `enabled: false` nothing of it is loaded (SPEC §5).
  let modules;
  try {
    modules = await Promise.all([
      import('@mswjs/interceptors'),
      import('@mswjs/interceptors/ClientRequest'),
      import('@mswjs/interceptors/fetch'),
      import('node:http'),
      import('node:https'),
    ]);
  } catch (error) {
    throw interceptionFailed(`the interception library failed to load (${(error as Error).message})`, 'Check that "@mswjs/interceptors" is installed: npm ls @mswjs/interceptors.', error);
  }
  const [{ BatchInterceptor }, { ClientRequestInterceptor }, { FetchInterceptor }, http, https] = modules;
  // Checked before patching anything: a half-applied interceptor cannot always undo itself.
  const locked = lockedGlobals(http.default, https.default);
  if (locked.length > 0) throw interceptionFailed(`${locked.join(', ')} cannot be replaced (read-only and non-configurable)`, FROZEN_REMEDY);

  const parts = { fetch: new FetchInterceptor(), 'node:http': new ClientRequestInterceptor() };
  const interceptor = new BatchInterceptor({ name: 'scenario-harness', interceptors: Object.values(parts) });
  try {
    interceptor.apply();
  } catch (error) {
    interceptor.dispose();
    throw interceptionFailed(`the interceptor threw while patching (${(error as Error).message})`, FROZEN_REMEDY, error);
  }
  // @note An interceptor that finds its global unfit (`fetch` missing or non-configurable) logs
  // and returns without patching; only its readyState tells. Refuse to run half-blind.
  // @see https://github.com/mswjs/interceptors/blob/main/src/Interceptor.ts (apply, checkEnvironment)
  const idle = Object.entries(parts).filter(([, part]) => part.readyState !== 'APPLIED').map(([name]) => name);
  if (idle.length > 0) {
    interceptor.dispose();
    throw interceptionFailed(
      `the ${idle.join(' and ')} interceptor did not apply`,
      `Check that globalThis.fetch and node:http are Node's own (not replaced by a polyfill that cannot be patched) and that nothing made them non-configurable; run with DEBUG=* to see the interceptor's reason.`,
    );
  }
  interceptor.on('request', ({ request, controller }) => dispatch(request, controller));
  return interceptor;
}

/** Start routing intercepted calls to `listener`, installing the interceptor on first use. */
export async function addCallListener(listener: CallListener): Promise<void> {
  const state = registry();
  if (state.listeners.includes(listener)) return;
  state.interceptor ??= installInterceptor();
  try {
    await state.interceptor;
  } catch (error) {
    state.interceptor = undefined;
    throw error;
  }
  state.listeners.push(listener);
}

/** Stop routing calls to `listener`; the last one out restores `fetch` and `http`. */
export async function removeCallListener(listener: CallListener): Promise<void> {
  const state = registry();
  const index = state.listeners.indexOf(listener);
  if (index === -1) return;
  state.listeners.splice(index, 1);
  if (state.listeners.length === 0 && state.interceptor !== undefined) {
    const pending = state.interceptor;
    state.interceptor = undefined;
    (await pending).dispose();
  }
}
