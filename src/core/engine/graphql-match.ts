import type { GraphqlMatch } from '../types.js';
import { compileBodyMatch } from './body-match.js';
import { readGraphqlOperations, type GraphqlOperation, type GraphqlRequestParts } from './body/read-graphql-operations.js';
import { compileStringMatch } from './string-match.js';

/** A compiled `match.graphql`; `leaves` counts criteria for specificity, like a body matcher's. */
export interface GraphqlMatcher {
  test(request: GraphqlRequestParts): boolean;
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
  return {
    leaves: Math.max(1, (name ? 1 : 0) + (variables?.leaves ?? 0)),
    test: (request) =>
      operationsOf(request).some(
        (operation) =>
          (name === undefined || (operation.operationName !== undefined && name(operation.operationName))) &&
          (variables === undefined || variables.test(operation.variables)),
      ),
  };
}
