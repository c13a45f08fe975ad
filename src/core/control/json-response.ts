import { isHarnessError } from '../errors.js';
import { jsonAnswer, type ControlAnswer } from './control-call.js';
import { withKnownBody } from './known-body.js';

/** A JSON response, as every control endpoint answers. */
export function jsonResponse(body: unknown, status = 200, headers?: Record<string, string>): Response {
  const text = JSON.stringify(body);
  return withKnownBody(new Response(text, { status, headers: { 'content-type': 'application/json', ...headers } }), text);
}

/** A plain control answer as a Fetch Response (its text handed over beside it, see known-body.ts). */
export function toResponse(answer: ControlAnswer): Response {
  return withKnownBody(new Response(answer.text, { status: answer.status, headers: answer.headers }), answer.text);
}

/**
 * The one place a failure becomes an HTTP answer (SPEC §7): a store that is down is 503 with
 * its message; anything unexpected is 500 `Internal server error`, never a stack.
 */
export function toErrorAnswer(error: unknown, log: (message: string, error: unknown) => void): ControlAnswer {
  if (isHarnessError(error) && error.code === 'STORE_UNAVAILABLE') return jsonAnswer({ error: error.message }, 503);
  log('Internal error while answering a control request', error);
  return jsonAnswer({ error: 'Internal server error' }, 500);
}
