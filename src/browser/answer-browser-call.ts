import { TEST_ID_HEADER } from '../core/constants.js';
import { jsonAnswer, type ControlAnswer, type ControlCall } from '../core/control/control-call.js';
import type { CallListener } from '../core/interception/call-outcome.js';
import { wait, type MockReply } from '../core/interception/mock-reply.js';
import { callFromParts, type OutgoingCall } from '../core/interception/outgoing-call.js';
import { SOCKET_TICKET_PATH } from '../core/interception/socket-bridge.js';
import { socketBridge } from '../core/interception.js';
import { isPreflight, preflightHeaders, withCors } from './cors-headers.js';
import { readBrowserCall } from './read-browser-call.js';
import { replyBody } from './reply-body.js';

/** The faults a browser's route aborts with; `'malformed'` is a (cut) body, fulfilled. */
const ABORTING_FAULTS = new Set(['network', 'reset', 'timeout']);

function reply(call: OutgoingCall, made: MockReply): ControlAnswer {
  if (made.fault !== undefined && ABORTING_FAULTS.has(made.fault)) {
    return jsonAnswer({ answered: true, status: made.status, headers: {}, bodyBase64: '', fault: made.fault });
  }
  const body = Buffer.from(replyBody(made, call.method)).toString('base64');
  return jsonAnswer({ answered: true, status: made.status, headers: withCors(made.headers, call.headers), bodyBase64: body, ...(made.fault === undefined ? {} : { fault: made.fault }) });
}

/** What the browser's answer endpoint gets from the harness. */
export interface BrowserAnswerContext {
  /** The harness's answer to an outgoing call: the same scenario, variant, own mocks, state, sequences and journal. */
  listener: CallListener;
  /** `limits.maxBodyBytes`: the largest request body the endpoint reads. */
  maxBodyBytes: number;
}

/**
 * `POST /__harness__/answer`: a call the test's browser made, answered from the test's session
 * exactly as the app's own calls are (the same listener: scenario, variant, own mocks, state,
 * sequences, journal with `side: 'browser'`). A mock's `delay` holds this answer back; a CORS
 * preflight for a mocked URL is answered 204; a call no mock answers follows `unhandled`, told
 * to the caller as `action: 'abort'` (the browser's call must never reach the network) or
 * `'continue'`.
 */
export async function answerBrowserCall(control: ControlCall, testId: string, { listener, maxBodyBytes }: BrowserAnswerContext): Promise<ControlAnswer> {
  const read = await control.readJson(maxBodyBytes);
  if (!read.ok) return read.status === 413 ? jsonAnswer({ error: 'Request body too large' }, 413) : jsonAnswer({ error: 'Invalid request body', details: [read.issue] }, 400);
  const input = readBrowserCall(read.value);
  if (typeof input === 'string') return jsonAnswer({ error: `Invalid request body: ${input}.` }, 400);
  // The endpoint's test ID is the call's, whatever the page's request carried.
  input.headers.set(TEST_ID_HEADER, testId);
  const { body } = input;
  const call = callFromParts({ method: input.method, url: input.url, headers: input.headers, body, readBody: async () => body, side: 'browser', ...(input.upgrade === undefined ? {} : { upgrade: input.upgrade }) });

  const outcome = await listener.answer(call);
  // A page's WebSocket a socket mock answers: the fixture relays it to the harness's bridge, where the mock runs.
  if (outcome?.kind === 'socket') {
    const bridge = await socketBridge();
    if (bridge === undefined) return jsonAnswer({ answered: false, action: 'abort', error: "[scenario-harness] The harness's socket bridge is not running (the harness is stopped)." });
    const ticket = bridge.expect({ url: new URL(input.url.href.replace(/^http/, 'ws')), answer: outcome.socket });
    return jsonAnswer({ answered: true, status: 101, headers: {}, bodyBase64: '', socket: `ws://${bridge.host}${SOCKET_TICKET_PATH}${ticket}` });
  }
  if (outcome?.kind === 'reply') {
    if (outcome.reply.delay > 0) await wait(outcome.reply.delay);
    return reply(call, outcome.reply);
  }
  // A response function that threw, or a store that is down under unhandled: 'error'.
  if (outcome?.kind === 'fail') return jsonAnswer({ answered: false, action: 'abort', error: outcome.error.message });
  // A recording test's call: it goes to the real API from the browser, whose answer never comes
  // back here, so nothing is recorded for it.
  if (outcome?.kind === 'pass') {
    outcome.capture?.failed();
    return jsonAnswer({ answered: false, action: 'continue' });
  }
  // @note A preflight asks whether the call it announces may be sent: for a URL the test mocks,
  // yes, as the API would say. Not journaled: the journal lists the calls themselves.
  const preflight = isPreflight(call.method, call.headers) ? call.headers.get('access-control-request-method')!.toUpperCase() : undefined;
  if (preflight !== undefined && (await listener.mocksUrl(call, preflight))) {
    return jsonAnswer({ answered: true, status: 204, headers: preflightHeaders(call.headers), bodyBase64: '' });
  }
  const decided = await listener.unanswered(call);
  return decided.kind === 'fail' ? jsonAnswer({ answered: false, action: 'abort', error: decided.error.message }) : jsonAnswer({ answered: false, action: 'continue' });
}
