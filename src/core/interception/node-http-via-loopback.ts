import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tryGetTestId } from '../test-context.js';
import type { CallOutcome } from './call-outcome.js';
import { answerOverLoopback, CALL_HEADER, recordOf, type LoopbackCalls, type Modules, type PendingCall } from './loopback-answer.js';
import type { OutgoingCall } from './outgoing-call.js';
import { requestTargetUrl } from './request-target-url.js';

type RequestFunction = typeof http.request;

export interface NodeHttpViaLoopbackOptions {
  decide(call: OutgoingCall): Promise<CallOutcome>;
}




/**
 * `node:http` and `node:https` on Bun and Deno. The interception library's current line works on
 * Node's own sockets (their native handles), which these runtimes do not have: applied there, it
 * dialled loopback for every connection. So each call is sent, by the runtime's own client, to a
 * server of the harness on 127.0.0.1 instead, with the app's target kept in this process. That
 * server asks the engine, then writes the mock's answer, fails the app's request with the
 * harness's error, or passes the call on with the app's own options and streams the answer back.
 * The app's `ClientRequest` and `IncomingMessage` are the runtime's own throughout.
 * @returns a function that puts `request` and `get` back and closes the server.
 */
export async function installNodeHttpViaLoopback({ decide }: NodeHttpViaLoopbackOptions): Promise<() => void> {
  const nodeHttp = process.getBuiltinModule('node:http');
  const modules: Modules = { http: nodeHttp, https: process.getBuiltinModule('node:https') };
  const own = { http: { request: modules.http.request, get: modules.http.get }, https: { request: modules.https.request, get: modules.https.get } };
  const pending = new Map<string, PendingCall>();

  const calls: LoopbackCalls = { decide, pending, own };
  const server = nodeHttp.createServer((req, res) => void answerOverLoopback(calls, req, res));
  // Its own `emit`: scenario-harness/node scopes every server's requests by wrapping the prototype's, and this one is not the app's.
  server.emit = process.getBuiltinModule('node:events').EventEmitter.prototype.emit as typeof server.emit;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  server.unref();
  const port = (server.address() as AddressInfo).port;
  const agent = new nodeHttp.Agent({ keepAlive: true });

  function wrap(scheme: 'http' | 'https', key: 'request' | 'get'): RequestFunction {
    const original = own[scheme][key];
    return function (this: unknown, ...args: unknown[]) {
      const target = targetOf(scheme, args);
      if (target === undefined) return Reflect.apply(original, this, args) as http.ClientRequest;
      // Unguessable: any local process can reach the server, and an ID names the app's own call (its
      // target and options) until the app's request closes. (Not dropped at first use: a runtime's
      // client may send the request again when a kept-alive connection turns out closed.)
      const id = crypto.randomUUID();
      const call: PendingCall = { url: target.url, options: target.options, testId: tryGetTestId() };
      pending.set(id, call);
      const headers = { ...headerRecord(target.options.headers), host: target.url.host, [CALL_HEADER]: id };
      const { signal, timeout } = target.options;
      const options: http.RequestOptions = { method: target.options.method ?? 'GET', host: '127.0.0.1', port, path: `${target.url.pathname}${target.url.search}`, headers, agent, signal, timeout };
      const request = own.http.request(options, target.callback as Parameters<RequestFunction>[1] as never);
      call.request = request;
      request.once('close', () => pending.delete(id));
      if (key === 'get') request.end();
      return request;
    } as RequestFunction;
  }

  const restores: (() => void)[] = [];
  for (const scheme of ['http', 'https'] as const) {
    for (const key of ['request', 'get'] as const) {
      const wrapped = wrap(scheme, key);
      modules[scheme][key] = wrapped;
      restores.push(() => {
        if (modules[scheme][key] === wrapped) modules[scheme][key] = own[scheme][key];
      });
    }
  }
  return () => {
    for (const restore of restores) restore();
    pending.clear();
    agent.destroy();
    server.close();
  };
}

/**
 * The URL, options and callback of `request(url, options?, callback?)` or `request(options,
 * callback?)`, read as Node reads them; `undefined` for a call this layer leaves alone (a unix
 * socket, which never leaves the machine, or an upgrade, which it cannot carry).
 */
function targetOf(scheme: 'http' | 'https', args: unknown[]): { url: URL; options: http.RequestOptions; callback: unknown } | undefined {
  const [first, second, third] = args;
  const fromUrl = typeof first === 'string' || first instanceof URL ? new URL(first) : undefined;
  const options = ((fromUrl === undefined ? first : typeof second === 'object' && second !== null ? second : {}) ?? {}) as http.RequestOptions;
  const callback = typeof second === 'function' ? second : third;
  if (options.socketPath !== undefined || options.createConnection !== undefined) return undefined;
  const upgrade = Object.entries(headerRecord(options.headers)).some(([name]) => name.toLowerCase() === 'upgrade');
  if (upgrade) return undefined;
  return { url: requestTargetUrl(scheme, options, fromUrl), options, callback };
}

/** Headers as a record, from the object or the flat `[name, value, …]` list `request` accepts. */
function headerRecord(headers: http.OutgoingHttpHeaders | readonly string[] | undefined): Record<string, string | string[] | number> {
  if (headers === undefined) return {};
  return Array.isArray(headers) ? recordOf(headers as string[]) : (headers as Record<string, string | string[] | number>);
}

