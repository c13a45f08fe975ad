import type { Mock, MockResponse } from '../core/types.js';
import { checkMatch } from './check-match.js';
import { checkResponse } from './check-response.js';
import { pathOperations, type ContractPath } from './contract-paths.js';
import type { Contract } from './load-contract.js';
import { operationLabel, type Finding, type OperationContext } from './operation-context.js';
import { placeMock } from './place-mock.js';
import type { SchemaValidators } from './schema-validators.js';

/** What checking one mock found: problems (each against an operation of a document), or why it was not (fully) checked. */
export interface MockOutcome {
  /** It was placed on a document's path (or under its server, on no path it documents). */
  checked: boolean;
  findings: (Finding & { operation?: string; document: string })[];
  /** Set when the mock, or part of it, was not checked. */
  unchecked?: string;
}

function responsesOf(mock: Mock): { field: string; response: MockResponse | undefined }[] {
  if (mock.sequence !== undefined) return mock.sequence.responses.map((response, i) => ({ field: `sequence.responses[${i}]`, response: typeof response === 'function' ? undefined : response }));
  return [{ field: 'response', response: typeof mock.response === 'function' ? undefined : mock.response }];
}

function checkOperation(context: OperationContext, mock: Mock): Finding[] {
  const findings = checkMatch(context, mock.match);
  for (const { field, response } of responsesOf(mock)) if (response !== undefined) findings.push(...checkResponse(context, response, field));
  return findings;
}

function checkPath(path: ContractPath, mock: Mock, validators: SchemaValidators): MockOutcome {
  const document = path.contract.path;
  const operations = pathOperations(path);
  const context = (method: string, operation: OperationContext['operation']): OperationContext => ({ contract: path.contract, validators, method, template: path.template, operation, pathItem: path.item });
  const tag = (context: OperationContext, findings: Finding[]) => findings.map((finding) => ({ ...finding, operation: operationLabel(context), document }));
  if (mock.method === undefined) {
    // Any method: it must fit one of the path's operations; when none fits, the closest one's problems are shown.
    let closest: MockOutcome['findings'] | undefined;
    for (const [method, operation] of operations) {
      const op = context(method, operation);
      const findings = tag(op, checkOperation(op, mock));
      if (closest === undefined || findings.length < closest.length) closest = findings;
      if (findings.length === 0) break;
    }
    return { checked: true, findings: closest ?? [{ field: 'url', message: `expected an operation: ${path.template} documents none`, document }] };
  }
  const findings: MockOutcome['findings'] = [];
  for (const method of Array.isArray(mock.method) ? mock.method : [mock.method]) {
    const found = operations.find(([documented]) => documented === method);
    if (found === undefined) {
      findings.push({ field: 'method', message: `expected a method ${path.template} documents (${operations.map(([m]) => m).join(', ') || 'none'}), got ${method}`, document });
      continue;
    }
    const op = context(method, found[1]);
    findings.push(...tag(op, checkOperation(op, mock)));
  }
  return { checked: true, findings };
}

/**
 * Check one mock against the documents: find the documented path its URL answers for, then,
 * for each of its methods, the operation, its `match`, and each response it gives. A mock on no
 * document's servers, or with a URL pattern that covers several paths, is returned unchecked.
 */
export function checkMock(mock: Mock, contracts: readonly Contract[], validators: Map<Contract, SchemaValidators>): MockOutcome {
  const placement = placeMock(mock.url, contracts);
  if (placement.kind === 'unchecked') return { checked: false, findings: [], unchecked: placement.reason };
  if (placement.kind === 'unknown-path') {
    const names = placement.contracts.map((contract) => contract.name).join(', ');
    return { checked: true, findings: [{ field: 'url', message: `expected a path ${names} documents: ${placement.path} is under its servers, but none of its paths matches it`, document: placement.contracts[0]!.path }] };
  }
  const outcome = checkPath(placement.path, mock, validators.get(placement.path.contract)!);
  const functions = responsesOf(mock).filter(({ response }) => response === undefined).length;
  if (functions > 0) outcome.unchecked = 'its response is a function: its URL, method and match were checked, not what it answers';
  return outcome;
}
