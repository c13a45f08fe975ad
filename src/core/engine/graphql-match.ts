import type { GraphqlMatch } from '../types.js';
import { compileBodyMatch } from './body-match.js';
import { readGraphqlOperations, type GraphqlOperation, type GraphqlRequestParts } from './body/read-graphql-operations.js';
import { describeStringMatch, mismatch } from './describe-value.js';
import { compileStringMatch } from './string-match.js';

/** A compiled `match.graphql`; `leaves` counts criteria for specificity, like a body matcher's. */
export interface GraphqlMatcher {
  test(request: GraphqlRequestParts): boolean;
  /** Why no operation of the request matches, naming what it sent; `undefined` when one matches. */
  explain(request: GraphqlRequestParts): string | undefined;
  leaves: number;
}

/**
 * One call's operations, read once however many GraphQL mocks look at it: keyed by the parsed
 * body object, or for a GET (or raw `application/graphql`) call by its URL object, checked
 * against the query string and body it was read from.
 */
const operationsSeen = new WeakMap<object, { search: string; body: unknown; operations: readonly GraphqlOperation[] }>();

function operationsOf(request: GraphqlRequestParts): readonly GraphqlOperation[] {
  const key = typeof request.body === 'object' && request.body !== null ? request.body : request.url;
  const seen = operationsSeen.get(key);
  if (seen !== undefined && seen.search === request.url.search && seen.body === request.body) return seen.operations;
  const operations = readGraphqlOperations(request);
  operationsSeen.set(key, { search: request.url.search, body: request.body, operations });
  return operations;
}

/**
 * Compile `match.graphql: { operationName?, variables? }`. A request matches when one of its
 * operations (one, or any of a batch) has that name (a `StringMatch`) and variables that
 * match partially and deeply, as `match.body` does. `{}` matches any GraphQL request.
 */
export function compileGraphqlMatch(expected: GraphqlMatch, field: string): GraphqlMatcher {
  const name = expected.operationName === undefined ? undefined : compileStringMatch(expected.operationName, `${field}.operationName`);
  const variables = expected.variables === undefined ? undefined : compileBodyMatch(expected.variables, `${field}.variables`);
  const nameMatches = (operation: GraphqlOperation) => name === undefined || (operation.operationName !== undefined && name(operation.operationName));
  const test = (request: GraphqlRequestParts) => operationsOf(request).some((operation) => nameMatches(operation) && (variables === undefined || variables.test(operation.variables)));
  return {
    leaves: Math.max(1, (name ? 1 : 0) + (variables?.leaves ?? 0)),
    test,
    explain(request) {
      if (test(request)) return undefined;
      const operations = operationsOf(request);
      if (operations.length === 0) return `${field}: the call is not a GraphQL request`;
      const named = operations.find(nameMatches);
      if (named === undefined) return mismatch(`${field}.operationName`, describeStringMatch(expected.operationName!), operations.map((operation) => operation.operationName ?? null).join(', '));
      return variables?.explain(named.variables) ?? `${field}: no operation matches`;
    },
  };
}
