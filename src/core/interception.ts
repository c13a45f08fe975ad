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

async function installInterceptor(): Promise<{ dispose(): void }> {
  try {
    // Loaded here, never at import time: with `enabled: false` nothing of it is loaded (SPEC §5).
    const [{ BatchInterceptor }, { ClientRequestInterceptor }, { FetchInterceptor }] = await Promise.all([
      import('@mswjs/interceptors'),
      import('@mswjs/interceptors/ClientRequest'),
      import('@mswjs/interceptors/fetch'),
    ]);
    const interceptor = new BatchInterceptor({
      name: 'scenario-harness',
      interceptors: [new ClientRequestInterceptor(), new FetchInterceptor()],
    });
    interceptor.apply();
    interceptor.on('request', ({ request, controller }) => dispatch(request, controller));
    return interceptor;
  } catch (error) {
    throw new HarnessError(
      'INTERCEPTION_FAILED',
      `Failed to start intercepting outgoing calls: ${(error as Error).message}. Outgoing calls would reach the real network, so the harness refuses to start. Check that "@mswjs/interceptors" is installed (npm ls @mswjs/interceptors) and that nothing else replaced globalThis.fetch or http.request in a way it cannot patch.`,
      { cause: error },
    );
  }
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
