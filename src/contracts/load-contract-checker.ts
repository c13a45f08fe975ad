import type { ContractChecker, ContractsOptions } from '../core/contract-check.js';
import type { Logger } from '../core/dev-utils.js';
import { checkCall, checkCallNow } from './check-call.js';
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
 * catastrophically), and returns the checker the core calls for each answered call. Each
 * document's schemas are compiled on first use, once.
 */
export async function loadContractChecker(options: ContractsOptions, logger?: Pick<Logger, 'warn'>): Promise<ContractChecker> {
  const allowRefsOutside = options.allowRefsOutside === true;
  const contracts = await Promise.all(options.openapi.map((source, i) => loadContract(source, { label: typeof source === 'string' ? undefined : `contracts.openapi[${i}] (${titleOf(source)})`, allowRefsOutside })));
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
