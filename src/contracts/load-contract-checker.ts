import type { ContractChecker, ContractsOptions, ContractViolation } from '../core/contract-check.js';
import type { Logger } from '../core/dev-utils.js';
import { NOT_NOW } from '../core/interception/call-outcome.js';
import type { MockReply } from '../core/interception/mock-reply.js';
import { checkCall, checkCallNow } from './check-call.js';
import { createLlmAnswerChecker, type LlmAnswerChecker } from './check-llm-answer.js';
import { loadContract, type Contract } from './load-contract.js';
import { placeMock, type Placement } from './place-mock.js';
import { createSchemaValidators, type SchemaValidators } from './schema-validators.js';

/** Distinct origin + path pairs whose placement is remembered; past this the memory starts over (URLs with IDs in them never repeat). */
const MAX_PLACEMENTS = 2000;

/** A document object's title, for messages: `"Museum events"`. */
function titleOf(document: Record<string, unknown>): string {
  const { info } = document;
  return typeof info === 'object' && info !== null && typeof (info as { title?: unknown }).title === 'string' ? JSON.stringify((info as { title: string }).title) : 'untitled';
}

/**
 * The contract checks of `createHarness({ contracts })`: reads every document (a file path or
 * an object; one that cannot be read rejects with a `HarnessError` naming it and why), says
 * through `logger` what of them is not checked (a `pattern` that could backtrack
 * catastrophically), and returns the checker the core calls for each answered call: against the
 * documents, and an `llm` answer against its request's schemas (unless `llm: false`). Each
 * schema is compiled on first use, once.
 */
export async function loadContractChecker(options: ContractsOptions, logger?: Pick<Logger, 'warn'>): Promise<ContractChecker> {
  const documents = options.openapi === undefined ? undefined : await loadDocumentChecker(options.openapi, options.allowRefsOutside === true, logger);
  const llm = options.llm === false ? undefined : createLlmAnswerChecker(logger);
  if (llm === undefined) return documents ?? { check: async () => undefined, checkNow: () => undefined };
  return withLlmAnswers(documents, llm);
}

/** The documents' checker (if any) and the `llm` answers' together: one list of violations per call. */
function withLlmAnswers(documents: ContractChecker | undefined, llm: LlmAnswerChecker): ContractChecker {
  const add = (found: ContractViolation[] | undefined, reply: MockReply): ContractViolation[] | undefined => {
    if (reply.llm === undefined) return found;
    const more = llm.check(reply.llm);
    if (more === undefined) return found;
    return found === undefined ? more : [...found, ...more];
  };
  return {
    async check(call, reply) {
      return add(documents === undefined ? undefined : await documents.check(call, reply), reply);
    },
    checkNow(call, reply) {
      const found = documents === undefined ? undefined : documents.checkNow(call, reply);
      return found === NOT_NOW ? NOT_NOW : add(found, reply);
    },
  };
}

/** The checks against the API documents: each read first, each document's schemas compiled on first use. */
async function loadDocumentChecker(openapi: NonNullable<ContractsOptions['openapi']>, allowRefsOutside: boolean, logger?: Pick<Logger, 'warn'>): Promise<ContractChecker> {
  const contracts = await Promise.all(openapi.map((source, i) => loadContract(source, { label: typeof source === 'string' ? undefined : `contracts.openapi[${i}] (${titleOf(source)})`, allowRefsOutside })));
  for (const contract of contracts) for (const warning of contract.warnings) logger?.warn(`Contracts: ${contract.name}: ${warning}`);
  const validators = new Map<Contract, SchemaValidators>();
  const placements = new Map<string, Placement>();
  const context = {
    place(url: URL): Placement {
      const key = `${url.origin}${url.pathname}`;
      let placement = placements.get(key);
      if (placement === undefined) {
        // `*` is a wildcard to placeMock: a concrete path holding one is written escaped, as a literal.
        placement = placeMock(`${url.origin}${url.pathname.replaceAll('*', '%2A')}`, contracts);
        if (placements.size >= MAX_PLACEMENTS) placements.clear();
        placements.set(key, placement);
      }
      return placement;
    },
    validators(contract: Contract): SchemaValidators {
      let found = validators.get(contract);
      if (found === undefined) {
        found = createSchemaValidators(contract.document);
        validators.set(contract, found);
      }
      return found;
    },
  };
  return { check: (call, reply) => checkCall(call, reply, context), checkNow: (call, reply) => checkCallNow(call, reply, context) };
}
