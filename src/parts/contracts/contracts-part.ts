import type { ContractChecker } from '../../core/contract-check.js';
import type { PartDefinition } from '../../core/parts/harness-part.js';
import { checkContractsOptions } from './check-contracts-options.js';
import { createContractGate } from './contract-gate.js';

/**
 * The contract checks (`contracts` option): `start()` reads the API documents, and on the call
 * path every answered call under a document's servers, and every `llm` answer against the
 * schemas its request sent (`contracts.llm`), is checked before the app gets it. ajv, the
 * OpenAPI parser and the checker load only when `contracts` is set.
 */
export const CONTRACTS_PART: PartDefinition = {
  name: 'the contract checks',
  routes: [],
  checkOptions: (options) => checkContractsOptions(options.contracts),
  create({ enabled, options, logger }) {
    const contracts = enabled ? options.contracts : undefined;
    if (contracts === undefined) return {};
    /** Set by `start()`, which reads the documents: until then no call is checked. */
    let checker: ContractChecker | undefined;
    return {
      steps: { check: createContractGate({ checker: () => checker, onViolation: contracts.onViolation ?? 'warn', logger }) },
      // The documents are read before the first call is answered: one that cannot be read fails start(), naming it.
      async start() {
        checker ??= await (await import('../../contracts/load-contract-checker.js')).loadContractChecker(contracts, logger);
      },
    };
  },
};
