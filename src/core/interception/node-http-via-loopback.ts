import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Readable } from 'node:stream';
import { runRecordedCall } from '../recording/recorded-call-context.js';
import { runWithTestId, tryGetTestId } from '../test-context.js';
import type { CallOutcome } from './call-outcome.js';
import { isConnectionFault, replyToResponse, simulatedNetworkError, wait } from './mock-reply.js';
import { callFromParts, type OutgoingCall } from './outgoing-call.js';

export interface NodeHttpViaLoopbackOptions {
  decide(call: OutgoingCall): Promise<CallOutcome>;
}

type RequestFunction = typeof http.request;
type Modules = Record<'http' | 'https', { request: RequestFunction; get: RequestFunction }>;

/** What the answering server needs of one call the app made: kept in this process, named by an ID header. */
interface PendingCall {
  url: URL;
  /** The app's own options (agent, TLS settings, timeout): a pass-through is made with them. */
  options: http.RequestOptions;
  testId: string | undefined;
  request?: http.ClientRequest;
}

/** The header that names a call to the answering server; never sent anywhere else. */
const CALL_HEADER = 'x-harness-loopback-call';

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

  const server = nodeHttp.createServer((req, res) => void answer(req, res));
  // Its own `emit`: scenario-harness/node scopes every server's requests by wrapping the prototype's, and this one is not the app's.
  server.emit = process.getBuiltinModule('node:events').EventEmitter.prototype.emit as typeof server.emit;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  server.unref();
  const port = (server.address() as AddressInfo).port;
  const agent = new nodeHttp.Agent({ keepAlive: true });

  async function answer(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const id = req.headers[CALL_HEADER];
    const call = typeof id === 'string' ? pending.get(id) : undefined;
    if (call === undefined) return void res.writeHead(421).end();
    const headers = withoutCallHeader(req.rawHeaders);
    const outgoing = callFromParts({ method: (req.method ?? 'GET').toUpperCase(), url: call.url, headers, body: req, readBody: readAll });
    const outcome = await (call.testId === undefined ? decide(outgoing) : runWithTestId(call.testId, () => decide(outgoing))).catch((error: unknown) => ({ kind: 'fail' as const, error: error as Error }));
    if (outcome.kind === 'fail') return failCall(call, res, outcome.error);
    if (outcome.kind === 'pass') return passOn(call, outgoing, req, res, headers, outcome.capture);
    const { reply } = outcome;
    if (reply.delay > 0) await wait(reply.delay);
    if (isConnectionFault(reply.fault)) return failCall(call, res, simulatedNetworkError(outgoing.method, call.url, reply.fault));
    // Never answered: the app's request ends when its client gives up.
    if (reply.fault === 'timeout') return;
    if (reply.fault === 'malformed') return void res.socket?.end('HTTP/1.1 ???\r\n\r\n');
    const response = replyToResponse(reply, outgoing.method, call.url);
    res.writeHead(response.status, response.statusText, [...response.headers].flat());
    if (response.body === null) return void res.end();
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) res.write(chunk);
      res.end();
    } catch (error) {
      failCall(call, res, error as Error);
    }
  }

  /** Fail the app's own request with `error` (what the layers on Node do), and drop the loopback exchange. */
  function failCall(call: PendingCall, res: http.ServerResponse, error: Error): void {
    call.request?.destroy(error);
    res.destroy();
  }

  /** The call as the app made it, to its real host, with the answer streamed back (and kept, when its test records). */
  function passOn(call: PendingCall, outgoing: OutgoingCall, req: http.IncomingMessage, res: http.ServerResponse, headers: string[], capture: Extract<CallOutcome, { kind: 'pass' }>['capture']): void {
    const send = () => own[call.url.protocol === 'https:' ? 'https' : 'http'].request(call.url, { ...call.options, method: outgoing.method, headers: recordOf(headers) });
    const upstream = capture === undefined ? send() : runRecordedCall(send);
    upstream.on('error', (error) => failCall(call, res, error));
    upstream.on('response', (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, answer.rawHeaders);
      const kept: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => {
        if (capture !== undefined) kept.push(chunk);
        res.write(chunk);
      });
      answer.on('end', () => {
        res.end();
        capture?.response({ status: answer.statusCode ?? 502, headers: new Headers(Object.entries(recordOf(answer.rawHeaders)).flatMap(([name, value]) => (Array.isArray(value) ? value : [value]).map((one): [string, string] => [name, one]))), body: new Uint8Array(Buffer.concat(kept)) });
      });
      answer.on('error', (error) => (capture?.failed(), failCall(call, res, error)));
    });
    res.on('close', () => upstream.destroy());
    if (!outgoing.bodyConsumed) return void req.pipe(upstream);
    void outgoing.bodyToSend().then(async (body) => {
      if (body instanceof Uint8Array) upstream.end(body);
      else if (body === undefined) upstream.end();
      else {
        for await (const chunk of body) upstream.write(chunk);
        upstream.end();
      }
    });
  }

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
  const protocol = options.protocol ?? fromUrl?.protocol ?? `${scheme}:`;
  const host = options.hostname ?? options.host?.replace(/:\d+$/, '') ?? fromUrl?.hostname ?? 'localhost';
  const port = options.port ?? (fromUrl?.port || undefined) ?? options.defaultPort;
  const path = options.path ?? (fromUrl === undefined ? '/' : `${fromUrl.pathname}${fromUrl.search}`);
  const url = new URL(`${protocol}//${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}${port === undefined ? '' : `:${port}`}${path}`);
  return { url, options, callback };
}

/** Headers as a record, from the object or the flat `[name, value, …]` list `request` accepts. */
function headerRecord(headers: http.OutgoingHttpHeaders | readonly string[] | undefined): Record<string, string | string[] | number> {
  if (headers === undefined) return {};
  if (!Array.isArray(headers)) return headers as Record<string, string | string[] | number>;
  const record: Record<string, string> = {};
  for (let i = 0; i + 1 < headers.length; i += 2) record[headers[i]!] = headers[i + 1]!;
  return record;
}

/** The raw header list the app sent, without the call ID. */
function withoutCallHeader(rawHeaders: string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) if (rawHeaders[i]!.toLowerCase() !== CALL_HEADER) kept.push(rawHeaders[i]!, rawHeaders[i + 1]!);
  return kept;
}

/** A flat `[name, value, …]` list as a record of lower-case names, a repeated name's values in a list. */
function recordOf(flat: string[]): Record<string, string | string[]> {
  const record: Record<string, string | string[]> = {};
  for (let i = 0; i + 1 < flat.length; i += 2) {
    const name = flat[i]!.toLowerCase();
    const before = record[name];
    record[name] = before === undefined ? flat[i + 1]! : [...(Array.isArray(before) ? before : [before]), flat[i + 1]!];
  }
  return record;
}

async function readAll(body: unknown): Promise<Uint8Array | undefined> {
  const chunks: Buffer[] = [];
  for await (const chunk of body as Readable) chunks.push(chunk as Buffer);
  return chunks.length === 0 ? undefined : new Uint8Array(Buffer.concat(chunks));
}
