import { HINT_HEADER } from '../core/constants.js';
import { jsonResponse } from '../core/control/json-response.js';
import { quote } from '../core/dev-utils.js';
import { isHarnessError } from '../core/errors.js';
import { FORWARD_HINT, type Refusal } from './refuse-forward.js';

/** The `x-harness-hint` of a call failed by `--on-contract-violation error`. */
const CONTRACT_HINT = "The server checks each answered call against its --openapi documents, and each llm answer against its request's schemas; --on-contract-violation warn answers such calls anyway.";

/** What the standalone server knows of the call it failed. */
export interface FailedCall {
  /** `POST https://api.stripe.com/v1/charges` */
  what: string;
  testId: string;
  /** Why an unanswered call was not forwarded either; `undefined` with `--unhandled error`. */
  refusal: Refusal | undefined;
}

/**
 * The standalone server's answer to a call the engine failed: a `503` for a store that is down,
 * a `502` naming every contract violation (`--on-contract-violation error`), else a `502` for a
 * call no mock answers, with its near misses. The embedded harness fails such calls as network
 * errors; a client of the server needs the reason in the answer instead.
 */
export function failedCallResponse(error: Error, { what, testId, refusal }: FailedCall): Response {
  if (isHarnessError(error) && error.code === 'STORE_UNAVAILABLE') {
    return jsonResponse({ error: `Failed to answer ${what} for test ${quote(testId)}: the session store failed. Check the store (--redis) and try again.`, testId }, 503);
  }
  if (isHarnessError(error) && error.code === 'CONTRACT_VIOLATION') {
    // The engine's message names createHarness's option; a server's user needs the flag.
    const { violations = [], llmViolations = 0 } = error as Error & { violations?: string[]; llmViolations?: number };
    const listed = violations.map((violation) => `\n  - ${violation}`).join('');
    // An `llm` answer's violations are against the schemas the service's own request sent, not a document.
    const [breaks, fix] =
      llmViolations === 0
        ? ['the call breaks its API document', "Fix the service's request or the mock's answer so they fit the document"]
        : llmViolations === violations.length
          ? ["the mock's llm answer breaks the schemas the request sent", "Fix the mock's llm answer (or the schema the service sends) so they fit"]
          : ['the call breaks its API document and the schemas the request sent', "Fix the service's request or the mock's answer so they fit the document and the request's schemas"];
    const message = `Failed to answer ${what} for test ${quote(testId)}: ${breaks} (--on-contract-violation error):${listed}\n${fix}, or start the server with --on-contract-violation warn to answer anyway.`;
    return jsonResponse({ error: message, testId, contractViolations: violations }, 502, { [HINT_HEADER]: CONTRACT_HINT });
  }
  const { scenarioId, nearMisses } = error as Error & { scenarioId?: string; nearMisses?: string[] };
  const where = `for test ${quote(testId)} in scenario ${quote(scenarioId ?? 'default')}`;
  const body = { testId, scenarioId, nearMisses: nearMisses ?? [] };
  if (refusal !== undefined) {
    const message = `No mock answers ${what} ${where}, and the server does not forward it: ${refusal.reason}. Add a mock for it, or ${refusal.remedy}.`;
    return jsonResponse({ error: message, ...body }, 502, { [HINT_HEADER]: FORWARD_HINT });
  }
  const message = `No mock answers ${what} ${where} (unhandled: 'error'). Add a mock for it, or start the server with --unhandled warn or --unhandled bypass.`;
  return jsonResponse({ error: message, ...body }, 502);
}
