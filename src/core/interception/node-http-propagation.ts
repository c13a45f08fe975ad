import type http from 'node:http';
import { addTestIdHeaders } from './propagation-headers.js';

type RequestFunction = typeof http.request;

export interface NodeHttpPropagationOptions {
  /** The current test ID, when a call to this URL must carry it (`propagate.hosts`). */
  testIdFor(url: URL): string | undefined;
}

/** The URL a node:http call goes to, from `request(url, options?, cb?)` or `request(options, cb?)`. */
function targetOf(protocol: string, first: unknown, options: http.RequestOptions): URL | undefined {
  try {
    if (typeof first === 'string' || first instanceof URL) return new URL(first);
    const host = options.hostname ?? options.host ?? 'localhost';
    return new URL(`${options.protocol ?? protocol}//${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}${options.port ? `:${options.port}` : ''}${options.path ?? '/'}`);
  } catch {
    return undefined;
  }
}

/** A copy of node:http headers (a record, or a flat raw array) with the test-ID headers added. */
function withTestId(headers: http.RequestOptions['headers'], testId: string): http.RequestOptions['headers'] {
  const list: [string, string][] = [];
  if (Array.isArray(headers)) for (let i = 0; i + 1 < headers.length; i += 2) list.push([String(headers[i]), String(headers[i + 1])]);
  else for (const [name, value] of Object.entries(headers ?? {})) if (value !== undefined) list.push([name, Array.isArray(value) ? value.join(', ') : String(value)]);
  const find = (name: string) => list.findIndex(([key]) => key.toLowerCase() === name);
  addTestIdHeaders(testId, (name) => list[find(name)]?.[1], (name, value) => {
    const index = find(name);
    if (index === -1) list.push([name, value]);
    else list[index]![1] = value;
  });
  return Object.fromEntries(list);
}

/**
 * Carry the current test ID on node:http/https calls to the hosts the harness propagates to
 * (`propagate.hosts`). Wraps `request` and `get` on top of the interception library's patch;
 * headers the app set itself are kept.
 * @returns a function that puts the previous functions back.
 */
export function installNodeHttpPropagation(modules: { http: Pick<typeof http, 'request' | 'get'>; https: Pick<typeof http, 'request' | 'get'> }, { testIdFor }: NodeHttpPropagationOptions): () => void {
  const restores: (() => void)[] = [];
  for (const [module, protocol] of [[modules.http, 'http:'], [modules.https, 'https:']] as const) {
    for (const key of ['request', 'get'] as const) {
      const original = module[key] as RequestFunction;
      const wrapped = function (this: unknown, ...args: unknown[]) {
        const [first] = args;
        const optionsIndex = typeof first === 'string' || first instanceof URL ? 1 : 0;
        const options = (typeof args[optionsIndex] === 'object' && args[optionsIndex] !== null ? args[optionsIndex] : {}) as http.RequestOptions;
        const url = targetOf(protocol, first, options);
        const testId = url === undefined ? undefined : testIdFor(url);
        if (testId !== undefined) {
          const next = { ...options, headers: withTestId(options.headers, testId) };
          if (typeof args[optionsIndex] === 'object' && args[optionsIndex] !== null) args[optionsIndex] = next;
          else args.splice(optionsIndex, 0, next);
        }
        return Reflect.apply(original, this, args) as ReturnType<RequestFunction>;
      } as RequestFunction;
      module[key] = wrapped;
      restores.push(() => {
        if (module[key] === wrapped) module[key] = original;
      });
    }
  }
  return () => restores.forEach((restore) => restore());
}
