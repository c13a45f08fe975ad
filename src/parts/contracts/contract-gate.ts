import type { ContractChecker, ContractViolation, ContractViolationStrategy } from '../../core/contract-check.js';
import { quote, type Logger } from '../../core/dev-utils.js';
import { HarnessError } from '../../core/errors.js';
import { firstTimeFor } from '../../core/first-time.js';
import { NOT_NOW } from '../../core/interception/call-outcome.js';
import type { MockReply } from '../../core/interception/mock-reply.js';
import type { OutgoingCall } from '../../core/interception/outgoing-call.js';
import type { AnswerCheck, AnswerVerdict } from '../../core/parts/call-steps.js';

/** What the gate made of one answered call: the journal's `contractViolations`, and the failure `'error'` gives it. */
export type ContractVerdict = AnswerVerdict;

/** Distinct problems remembered for "logged once"; past this, the set starts over (a long soak must not grow it without end). */
const MAX_REMEMBERED = 1000;

/** What the call breaks: its API document, the schemas its own request sent (an `llm` answer's), or both. */
function whatBreaks(found: readonly ContractViolation[]): string {
  const llm = found.filter((violation) => violation.source === 'llm').length;
  if (llm === 0) return 'the call breaks its API document';
  return llm === found.length ? "the mock's llm answer breaks the schemas the request sent" : "the call breaks its API document and the schemas the request sent";
}

function howToFix(found: readonly ContractViolation[]): string {
  const llm = found.filter((violation) => violation.source === 'llm').length;
  if (llm === 0) return "Fix the app's request or the mock's answer so they fit the document";
  return llm === found.length ? "Fix the mock's llm answer (or the schema the app sends) so they fit" : "Fix the app's request or the mock's answer so they fit the document and the request's schemas";
}

export interface ContractGateOptions {
  /** The loaded checker; `undefined` until `start()` has loaded the documents. */
  checker: () => ContractChecker | undefined;
  onViolation: ContractViolationStrategy;
  logger: Logger;
}

/**
 * The contract checks between the mock's reply and the app (`createHarness({ contracts })`):
 * each answered call under a document's servers gets its list of violations (for the journal),
 * `'warn'` logs each distinct one once, `'error'` turns them into the call's failure.
 */
export function createContractGate({ checker, onViolation, logger }: ContractGateOptions): AnswerCheck {
  const firstLogOf = firstTimeFor(MAX_REMEMBERED);
  let failedOnce = false;

  /** A fault of the checker (or of a document it could not compile) must not fail an app's call: logged once, the call goes unchecked. */
  function checkerFailed(call: OutgoingCall, error: unknown): undefined {
    if (!failedOnce) logger.error(`Failed to check ${call.method} ${call.url.href} against its API document: ${(error as Error).message} (logged once).`, error);
    failedOnce = true;
    return undefined;
  }

  function verdictOf(call: OutgoingCall, testId: string, found: ContractViolation[] | undefined): ContractVerdict | undefined {
    if (found === undefined) return undefined;
    const violations = found.map((violation) => `${violation.message} (${violation.operation})`);
    if (violations.length === 0) return { violations };
    const where = `${call.method} ${call.url.origin}${call.url.pathname} of test ${quote(testId)}`;
    if (onViolation === 'error') {
      const listed = violations.map((violation) => `\n  - ${violation}`).join('');
      const failure = new HarnessError('CONTRACT_VIOLATION', `[scenario-harness] Failed to answer ${where}: ${whatBreaks(found)} (contracts.onViolation: 'error'):${listed}\n${howToFix(found)}, or set contracts: { onViolation: 'warn' } to answer anyway.`);
      // The violations ride along, as an unanswered call's near misses do: the standalone server answers them as JSON in its own words.
      return { violations, failure: Object.assign(failure, { testId, violations, llmViolations: found.filter((violation) => violation.source === 'llm').length }) };
    }
    for (const violation of violations) {
      if (!firstLogOf(`${call.method} ${violation}`)) continue;
      logger.warn(`Contract violation in ${where}: ${violation}. The call was answered as the mock says (contracts.onViolation: 'warn'; each distinct problem is logged once).`);
    }
    return { violations };
  }

  return {
    async check(call: OutgoingCall, testId: string, reply: MockReply): Promise<ContractVerdict | undefined> {
      const contracts = checker();
      if (contracts === undefined) return undefined;
      let found;
      try {
        found = await contracts.check(call, reply);
      } catch (error) {
        return checkerFailed(call, error);
      }
      return verdictOf(call, testId, found);
    },
    /** `check` without awaiting, for a call with no body to read; `NOT_NOW` for any other (and before the documents are loaded). */
    checkNow(call: OutgoingCall, testId: string, reply: MockReply): ContractVerdict | undefined | typeof NOT_NOW {
      const contracts = checker();
      if (contracts === undefined) return NOT_NOW;
      let found;
      try {
        found = contracts.checkNow(call, reply);
      } catch (error) {
        return checkerFailed(call, error);
      }
      return found === NOT_NOW ? NOT_NOW : verdictOf(call, testId, found);
    },
  };
}

