import type http from 'node:http';

type RequestFunction = typeof http.request;
type RequestFunctions = Pick<typeof http, 'request' | 'get'>;

/** The options object of `request(url, options?, cb?)` or `request(options, cb?)`, if any. */
function optionsOf(args: unknown[]): { socketPath?: unknown } | undefined {
  const [first, second] = args;
  const options = typeof first === 'string' || first instanceof URL ? second : first;
  return typeof options === 'object' && options !== null ? (options as { socketPath?: unknown }) : undefined;
}

/**
 * Hand node:http/https calls over a unix socket (`socketPath`) to Node's own functions, past
 * the interception library. Such a call never leaves the machine: it is a process talking to
 * another (Nitro's dev server forwards every request to its worker this way), as loopback is.
 * @note The library (0.41) loses the socket path of a call made with an `http.Agent` of the
 * app's own (it spreads the agent's options, whose `path` is null, over the call's) and connects
 * to 127.0.0.1:80 instead: `nuxt dev` then hung on every request.
 * @param unpatched `request` and `get` as they were before the library patched them
 * @returns a function that puts the patched functions back
 */
export function installUnixSocketPassThrough(
  modules: { http: RequestFunctions; https: RequestFunctions },
  unpatched: { http: RequestFunctions; https: RequestFunctions },
): () => void {
  const restores: (() => void)[] = [];
  for (const name of ['http', 'https'] as const) {
    const module = modules[name];
    for (const key of ['request', 'get'] as const) {
      const patched = module[key] as RequestFunction;
      const own = unpatched[name][key] as RequestFunction;
      const wrapped = function (this: unknown, ...args: unknown[]) {
        const target = typeof optionsOf(args)?.socketPath === 'string' ? own : patched;
        return Reflect.apply(target, this, args) as ReturnType<RequestFunction>;
      } as RequestFunction;
      module[key] = wrapped;
      restores.push(() => {
        if (module[key] === wrapped) module[key] = patched;
      });
    }
  }
  return () => restores.forEach((restore) => restore());
}
