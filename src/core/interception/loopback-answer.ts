import type http from 'node:http';
import { timedChunks } from '../recording/capture.js';
import { runRecordedCall } from '../recording/recorded-call-context.js';
import { runWithTestId } from '../test-context.js';
import { socketNotCarried, type CallOutcome } from './call-outcome.js';
import { headersFromDispatch, readDispatchBody } from './dispatch-options.js';
import { isConnectionFault, replyToResponse, simulatedNetworkError, wait } from './mock-reply.js';
import { callFromParts, type OutgoingCall } from './outgoing-call.js';

type RequestFunction = typeof http.request;
/** node:http's and node:https's own `request` and `get`, as they were before the harness. */
export type Modules = Record<'http' | 'https', { request: RequestFunction; get: RequestFunction }>;

/** What the answering server needs of one call the app made: kept in this process, named by an ID header. */
export interface PendingCall {
  url: URL;
  /** The app's own options (agent, TLS settings, timeout): a pass-through is made with them. */
  options: http.RequestOptions;
  testId: string | undefined;
  request?: http.ClientRequest;
}

/** The calls in flight over loopback, and how to answer them. */
export interface LoopbackCalls {
  decide(call: OutgoingCall): Promise<CallOutcome>;
  pending: Map<string, PendingCall>;
  own: Modules;
}

/** The header that names a call to the answering server; never sent anywhere else. */
export const CALL_HEADER = 'x-harness-loopback-call';

/**
 * One call the app sent over loopback: asked of the engine as its test, then answered from the
 * mock, failed in the app with the harness's error, or passed on.
 */
export async function answerOverLoopback({ decide, pending, own }: LoopbackCalls, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const id = req.headers[CALL_HEADER];
  const call = typeof id === 'string' ? pending.get(id) : undefined;
  if (call === undefined) return void res.writeHead(421).end();
  const headers = withoutCallHeader(req.rawHeaders);
  const outgoing = callFromParts({ method: (req.method ?? 'GET').toUpperCase(), url: call.url, headers, body: req, readBody: readDispatchBody });
  const outcome = await (call.testId === undefined ? decide(outgoing) : runWithTestId(call.testId, () => decide(outgoing))).catch((error: unknown) => ({ kind: 'fail' as const, error: error as Error }));
  if (outcome.kind === 'fail') return failCall(call, res, outcome.error);
  if (outcome.kind === 'socket') return failCall(call, res, socketNotCarried(outgoing, 'node:http on this runtime'));
  if (outcome.kind === 'pass') return passOn(own, call, outgoing, req, res, headers, outcome.capture);
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
function passOn(own: Modules, call: PendingCall, outgoing: OutgoingCall, req: http.IncomingMessage, res: http.ServerResponse, headers: string[], capture: Extract<CallOutcome, { kind: 'pass' }>['capture']): void {
  const send = () => own[call.url.protocol === 'https:' ? 'https' : 'http'].request(call.url, { ...call.options, method: outgoing.method, headers: recordOf(headers) });
  const upstream = capture === undefined ? send() : runRecordedCall(send);
  upstream.on('error', (error) => failCall(call, res, error));
  upstream.on('response', (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.statusMessage, answer.rawHeaders);
    const kept = capture === undefined ? undefined : timedChunks();
    answer.on('data', (chunk: Buffer) => {
      kept?.add(chunk);
      res.write(chunk);
    });
    answer.on('end', () => {
      res.end();
      if (kept !== undefined) capture?.response({ status: answer.statusCode ?? 502, headers: headersFromDispatch(answer.rawHeaders), ...kept.result() });
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

/** The raw header list the app sent, without the call ID. */
function withoutCallHeader(rawHeaders: string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) if (rawHeaders[i]!.toLowerCase() !== CALL_HEADER) kept.push(rawHeaders[i]!, rawHeaders[i + 1]!);
  return kept;
}

/** A flat `[name, value, …]` list (`rawHeaders`) as a record of lower-case names, a repeated name's values in a list. */
export function recordOf(flat: string[]): Record<string, string | string[]> {
  const record: Record<string, string | string[]> = {};
  for (let i = 0; i + 1 < flat.length; i += 2) {
    const name = flat[i]!.toLowerCase();
    const before = record[name];
    record[name] = before === undefined ? flat[i + 1]! : [...(Array.isArray(before) ? before : [before]), flat[i + 1]!];
  }
  return record;
}
