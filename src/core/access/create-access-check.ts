import { HARNESS_TOKEN_ENV } from '../constants.js';
import type { Logger } from '../dev-utils.js';
import { jsonAnswer, type ControlAnswer, type ControlCall } from '../control/control-call.js';
import type { AccessOptions } from '../types.js';
import { createTokenCheck } from './create-token-check.js';
import { MAX_AUTHORIZATION_LENGTH, readBearerToken, type BearerProblem } from './read-bearer-token.js';

/** A control call's refusal (401), or `undefined` when it may go on. */
export type AccessCheck = (call: ControlCall) => Promise<ControlAnswer | undefined>;

const REALM = 'Bearer realm="scenario-harness"';
const SEND = `Send "Authorization: Bearer <token>" with the token the app was given in createHarness({ access: { token } }): createHarnessClient({ token }), the Playwright option harnessToken, or the ${HARNESS_TOKEN_ENV} environment variable.`;

/**
 * What each refusal says. Never the expected token, nor the one received: a message goes back
 * to whoever asked, and may end up in a CI log.
 */
const REFUSALS: Record<BearerProblem | 'wrong', { error: string; challenge: string }> = {
  missing: { error: `Missing Authorization header: the control endpoints of this app require a token. ${SEND}`, challenge: REALM },
  empty: { error: `The Authorization header is empty. ${SEND}`, challenge: `${REALM}, error="invalid_request"` },
  'too-long': {
    error: `The Authorization header is longer than ${MAX_AUTHORIZATION_LENGTH} characters, so it was not read. ${SEND}`,
    challenge: `${REALM}, error="invalid_request"`,
  },
  repeated: {
    error: 'More than one credential in the Authorization header (it was sent twice, or holds a list): send it exactly once, as "Authorization: Bearer <token>".',
    challenge: `${REALM}, error="invalid_request"`,
  },
  scheme: { error: `The Authorization header does not use the Bearer scheme. ${SEND}`, challenge: `${REALM}, error="invalid_request"` },
  'no-token': { error: `The Authorization header has no token after "Bearer". ${SEND}`, challenge: `${REALM}, error="invalid_request"` },
  wrong: {
    error: `Wrong credentials: the bearer token in the Authorization header is not this app's token. Check that the tests and the app are given the same token (${HARNESS_TOKEN_ENV}).`,
    challenge: `${REALM}, error="invalid_token"`,
  },
};

function refuse(error: string, challenge = REALM): ControlAnswer {
  return jsonAnswer({ error }, 401, { 'www-authenticate': challenge });
}

/**
 * The access check of `createHarness({ access })`, run before any control endpoint answers;
 * `undefined` when `access` is unset (SPEC §5: no credentials). `access` was validated already.
 *
 * @example
 * const check = createAccessCheck({ token: process.env.HARNESS_TOKEN }, logger);
 * const refusal = await check?.(call); // a 401 answer, or undefined: go on
 * @see https://github.com/scenario-harness/scenario-harness/blob/main/docs/reliability-and-security.md#access-control
 */
export function createAccessCheck(access: AccessOptions | undefined, logger: Logger): AccessCheck | undefined {
  if (access === undefined) return undefined;
  const { token, authorize } = access;
  if (token !== undefined) {
    const matches = createTokenCheck(token);
    return async (call) => {
      const read = readBearerToken(call.header('authorization'));
      if ('problem' in read) return refuse(REFUSALS[read.problem].error, REFUSALS[read.problem].challenge);
      return matches(read.token) ? undefined : refuse(REFUSALS.wrong.error, REFUSALS.wrong.challenge);
    };
  }
  if (authorize === undefined) return undefined;
  let loggedFailure = false;
  let loggedNotBoolean = false;
  // @note No time limit: authorize is the app's own code, like a middleware of its own. One that
  // asks another service should bound that call itself (AbortSignal.timeout); until it settles,
  // the control request waits, as the app's own requests would.
  return async (call) => {
    let request: Request;
    try {
      request = call.toRequest();
    } catch {
      return refuse(`Access denied: this request (${call.method} ${call.pathname}) cannot be handed to access.authorize() as a Fetch Request.`);
    }
    let granted: unknown;
    try {
      granted = await authorize(request);
    } catch (error) {
      if (!loggedFailure) {
        loggedFailure = true;
        logger.error(`access.authorize() threw on ${call.method} ${call.pathname}; the request was refused with 401 (later failures are refused without a log line).`, error);
      }
      return refuse("Access denied: access.authorize() failed on this request (the app's log has the error).");
    }
    if (granted === true) return undefined;
    if (granted !== false && !loggedNotBoolean) {
      loggedNotBoolean = true;
      logger.warn(`access.authorize() returned ${typeof granted === 'object' && granted !== null ? 'an object' : typeof granted === 'string' ? JSON.stringify(granted) : String(granted)}, not true or false; only true grants access, so the request was refused with 401 (logged once).`);
    }
    return refuse('Access denied: access.authorize() refused this request.');
  };
}
